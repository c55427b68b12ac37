import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import * as React from 'react'
import { Form, Link, useNavigation } from 'react-router'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '~/components/ui/alert-dialog'
import { Button } from '~/components/ui/button'
import { Card, CardContent } from '~/components/ui/card'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '~/components/ui/dialog'
import { Field, FormErrors } from '~/components/ui/field'
import { Textarea } from '~/components/ui/textarea'
import { useHydrated } from '~/components/ui/use-hydrated'
import { formatCents } from '~/lib/money'
import { ReportProblemSchema } from '~/lib/purchase-schema'

const reportConstraint = getZodConstraint(ReportProblemSchema)

export type PurchaseIntent = 'confirm-receipt' | 'report-problem'

/** The purchase an action is about (what the buyer reads before deciding). */
export interface PurchaseActionTarget {
  transactionId: string
  title: string
  amountCents: number
  sellerUsername: string
}

/** Search parameter of the no-JavaScript step page for each action (`/purchases?report=<id>`). */
export const STEP_PARAM: Record<PurchaseIntent, string> = {
  'confirm-receipt': 'confirm',
  'report-problem': 'report',
}

function useBusy(transactionId: string, intent: PurchaseIntent) {
  const navigation = useNavigation()
  return (
    navigation.state !== 'idle' &&
    navigation.formData?.get('transactionId') === transactionId &&
    navigation.formData?.get('intent') === intent
  )
}

const REPORT_TEXT = 'The payment stays on hold while an admin reviews your report and releases or refunds it.'

/** Confirm Receipt releases the money: the buyer reads what it does before it happens. */
function confirmText(target: PurchaseActionTarget) {
  return `This releases your payment of ${formatCents(target.amountCents)} to @${target.sellerUsername}. Confirm only once you have opened the fork and it matches the listing: afterwards you can no longer report a problem.`
}

/** The confirmation's form: the one button that releases the money; `cancel` as in ReportProblemForm. */
function ConfirmReceiptForm({
  target,
  result,
  cancel,
}: {
  target: PurchaseActionTarget
  result?: SubmissionResult<string[]> | null
  cancel: React.ReactNode
}) {
  const busy = useBusy(target.transactionId, 'confirm-receipt')
  return (
    <Form method="post" className="grid gap-4">
      <input type="hidden" name="intent" value="confirm-receipt" />
      <input type="hidden" name="transactionId" value={target.transactionId} />
      <FormErrors errors={result?.error?.[''] ?? null} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" disabled={busy}>
          {busy ? 'Releasing…' : 'Confirm and release payment'}
        </Button>
      </div>
    </Form>
  )
}

function ConfirmReceiptDialog({ target, result }: { target: PurchaseActionTarget; result?: SubmissionResult<string[]> | null }) {
  const [open, setOpen] = React.useState(Boolean(result?.error))
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" aria-label={`Confirm Receipt of ${target.title}`}>
          Confirm Receipt
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Confirm receipt of “{target.title}”?</AlertDialogTitle>
          <AlertDialogDescription>{confirmText(target)}</AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmReceiptForm target={target} result={result} cancel={<AlertDialogCancel type="button">Cancel</AlertDialogCancel>} />
      </AlertDialogContent>
    </AlertDialog>
  )
}

/** Report a problem: the reason (required) and the submit button; `cancel` is the dialog's close or the step page's way back. */
function ReportProblemForm({
  id,
  target,
  result,
  cancel,
}: {
  id: string
  target: PurchaseActionTarget
  result?: SubmissionResult<string[]> | null
  cancel: React.ReactNode
}) {
  const busy = useBusy(target.transactionId, 'report-problem')
  const [form, fields] = useForm({
    id,
    lastResult: result,
    constraint: reportConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReportProblemSchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value="report-problem" />
      <input type="hidden" name="transactionId" value={target.transactionId} />
      <FormErrors meta={form} />
      <Field meta={fields.reason} label="What went wrong?" control="textarea" description="An admin reviews every report.">
        {(props) => <Textarea {...props} rows={4} />}
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" variant="destructive" disabled={busy}>
          {busy ? 'Sending…' : 'Submit report'}
        </Button>
      </div>
    </Form>
  )
}

function ReportProblemDialog({ target, result }: { target: PurchaseActionTarget; result?: SubmissionResult<string[]> | null }) {
  // Opens again with the server's answer when a submission from it was refused.
  const [open, setOpen] = React.useState(Boolean(result?.error))
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Report a problem with ${target.title}`}>
          Report a problem
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report a problem with “{target.title}”</DialogTitle>
          <DialogDescription>{REPORT_TEXT}</DialogDescription>
        </DialogHeader>
        <ReportProblemForm
          id={`report-${target.transactionId}`}
          target={target}
          result={result}
          cancel={
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
          }
        />
      </DialogContent>
    </Dialog>
  )
}

/**
 * A delivered purchase's actions while its window is open: Confirm Receipt
 * (it releases the money, so it asks first) and Report a problem. With
 * JavaScript each opens a dialog (outside the table, so nothing squeezes
 * it); without, each is a link to its step page (`?confirm=<id>`,
 * `?report=<id>`: PurchaseStep) with the same form.
 */
export function PurchaseActions({
  target,
  confirmResult,
  reportResult,
}: {
  target: PurchaseActionTarget
  confirmResult?: SubmissionResult<string[]> | null
  reportResult?: SubmissionResult<string[]> | null
}) {
  const hydrated = useHydrated()
  if (!hydrated) {
    return (
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <Link
            to={`/purchases?${STEP_PARAM['confirm-receipt']}=${target.transactionId}`}
            aria-label={`Confirm Receipt of ${target.title}`}
          >
            Confirm Receipt
          </Link>
        </Button>
        <Button asChild size="sm" variant="outline">
          <Link
            to={`/purchases?${STEP_PARAM['report-problem']}=${target.transactionId}`}
            aria-label={`Report a problem with ${target.title}`}
          >
            Report a problem
          </Link>
        </Button>
      </div>
    )
  }
  return (
    <div className="flex flex-wrap gap-2">
      <ConfirmReceiptDialog target={target} result={confirmResult} />
      <ReportProblemDialog target={target} result={reportResult} />
    </div>
  )
}

/**
 * The step page of an action (`/purchases?report=<id>`), above the list: the
 * way to it without JavaScript, and where a refused submission comes back to.
 */
export function PurchaseStep({
  intent,
  target,
  result,
}: {
  intent: PurchaseIntent
  target: PurchaseActionTarget
  result?: SubmissionResult<string[]> | null
}) {
  const cancel = (
    <Button asChild variant="outline">
      <Link to="/purchases">Cancel</Link>
    </Button>
  )
  if (intent === 'confirm-receipt') {
    return (
      <Card role="region" aria-labelledby="purchase-step-title" className="border-primary/50">
        <CardContent className="grid gap-4">
          <div className="grid gap-1">
            <h2 id="purchase-step-title" className="text-lg font-semibold">
              Confirm receipt of “{target.title}”?
            </h2>
            <p className="text-sm text-muted-foreground">{confirmText(target)}</p>
          </div>
          <ConfirmReceiptForm target={target} result={result} cancel={cancel} />
        </CardContent>
      </Card>
    )
  }
  return (
    <Card role="region" aria-labelledby="purchase-step-title" className="border-destructive/50">
      <CardContent className="grid gap-4">
        <div className="grid gap-1">
          <h2 id="purchase-step-title" className="text-lg font-semibold">
            Report a problem with “{target.title}”
          </h2>
          <p className="text-sm text-muted-foreground">{REPORT_TEXT}</p>
        </div>
        <ReportProblemForm id={`report-step-${target.transactionId}`} target={target} result={result} cancel={cancel} />
      </CardContent>
    </Card>
  )
}
