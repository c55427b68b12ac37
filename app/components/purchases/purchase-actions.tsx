import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { Button, buttonVariants } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { Textarea } from '~/components/ui/textarea'
import { cn } from '~/components/ui/cn'
import { ReportProblemSchema } from '~/lib/purchase-schema'

const reportConstraint = getZodConstraint(ReportProblemSchema)

/**
 * A delivered purchase's two actions while its window is open: Confirm Receipt
 * and Report a problem (reason required). Plain forms to the page's action,
 * so both work before JavaScript loads; the report form opens in a native
 * <details> disclosure.
 */
export function PurchaseActions({
  transactionId,
  title,
  confirmResult,
  reportResult,
}: {
  transactionId: string
  title: string
  confirmResult?: SubmissionResult<string[]> | null
  reportResult?: SubmissionResult<string[]> | null
}) {
  const navigation = useNavigation()
  const busy = (intent: string) =>
    navigation.state === 'submitting' &&
    navigation.formData?.get('transactionId') === transactionId &&
    navigation.formData?.get('intent') === intent
  const [form, fields] = useForm({
    id: `report-${transactionId}`,
    lastResult: reportResult,
    constraint: reportConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReportProblemSchema }),
  })

  return (
    <div className="grid gap-2">
      <Form method="post" className="grid gap-2">
        <input type="hidden" name="intent" value="confirm-receipt" />
        <input type="hidden" name="transactionId" value={transactionId} />
        <FormErrors errors={confirmResult?.error?.[''] ?? null} />
        <Button type="submit" size="sm" disabled={busy('confirm-receipt')} aria-label={`Confirm Receipt of ${title}`}>
          Confirm Receipt
        </Button>
      </Form>
      <details className="group" open={Boolean(reportResult?.error)}>
        <summary className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'w-full cursor-pointer list-none')}>
          Report a problem
        </summary>
        <Form method="post" {...getFormProps(form)} className="mt-3 grid w-64 gap-3">
          <input type="hidden" name="intent" value="report-problem" />
          <input type="hidden" name="transactionId" value={transactionId} />
          <FormErrors meta={form} />
          <Field meta={fields.reason} label="What went wrong?" control="textarea" description="An admin reviews every report.">
            {(props) => <Textarea {...props} rows={3} />}
          </Field>
          <Button type="submit" size="sm" variant="destructive" disabled={busy('report-problem')}>
            Submit report
          </Button>
        </Form>
      </details>
    </div>
  )
}
