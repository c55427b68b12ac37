import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import * as React from 'react'
import { useActionData, useFetcher } from 'react-router'
import type { z } from 'zod'
import { Button, buttonVariants, type ButtonProps } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '~/components/ui/dialog'
import { Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { showToast } from '~/components/ui/toaster'
import { useHydrated } from '~/components/ui/use-hydrated'
import { adminFormId, FAILURE_TITLES, type AdminActionResult, type AdminIntent } from './admin-actions'

export interface ActionDialogProps {
  intent: AdminIntent
  target: { name: 'transactionId' | 'userId' | 'batchId'; id: string }
  /** Hidden values the action needs besides the target (e.g. the bank-details version the admin reviewed). */
  hidden?: Record<string, string>
  schema: z.ZodObject
  triggerLabel: string
  triggerVariant?: ButtonProps['variant']
  title: string
  description: React.ReactNode
  /** Read-only facts shown above the form (e.g. the seller's full bank details). */
  details?: React.ReactNode
  field?: { name: 'paymentReference' | 'reason'; label: string; description?: string; multiline?: boolean }
  submitLabel: string
  submitVariant?: ButtonProps['variant']
}

/**
 * An admin action behind a confirmation: a Radix dialog holding a real form
 * once JavaScript runs; before that (or without it) the same form sits in a
 * <details> disclosure, so every action can be reached and submitted with
 * JavaScript off. Success redirects with a toast; a failure stays in the form
 * and raises the spec's failure toast.
 */
export function ActionDialog(props: ActionDialogProps) {
  const { intent, target, schema, field } = props
  const formId = adminFormId(intent, target.id)
  const hydrated = useHydrated()
  const fetcher = useFetcher<AdminActionResult>({ key: formId })
  const actionData = useActionData<AdminActionResult>()
  const own = fetcher.data?.formId === formId ? fetcher.data : actionData?.formId === formId ? actionData : undefined
  const constraint = React.useMemo(() => getZodConstraint(schema), [schema])
  const [form, fields] = useForm({
    id: formId,
    lastResult: own?.result,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  const [open, setOpen] = React.useState(false)
  const busy = fetcher.state !== 'idle'
  const failure = own?.result?.status === 'error' ? own.result.error?.['']?.[0] : undefined

  React.useEffect(() => {
    if (fetcher.data?.formId === formId && failure) {
      showToast({ type: 'error', title: FAILURE_TITLES[intent], description: failure })
    }
  }, [fetcher.data, failure, formId, intent])

  // Close once a submission finished without an error (success redirects and revalidates).
  const wasBusy = React.useRef(false)
  React.useEffect(() => {
    if (busy) wasBusy.current = true
    else if (wasBusy.current) {
      wasBusy.current = false
      if (fetcher.data?.result?.status !== 'error') setOpen(false)
    }
  }, [busy, fetcher.data])

  const fieldMeta = field ? (fields as unknown as Record<string, Parameters<typeof Field>[0]['meta']>)[field.name] : undefined

  const body = (
    <fetcher.Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={target.name} value={target.id} />
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {props.details}
      <FormErrors meta={form} />
      {field && fieldMeta ? (
        field.multiline ? (
          <Field meta={fieldMeta} label={field.label} description={field.description} control="textarea">
            {(controlProps) => <Textarea {...controlProps} rows={3} />}
          </Field>
        ) : (
          <Field meta={fieldMeta} label={field.label} description={field.description}>
            {(controlProps) => <Input {...controlProps} autoComplete="off" />}
          </Field>
        )
      ) : null}
      <DialogFooter>
        {hydrated ? (
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
        ) : null}
        <Button type="submit" variant={props.submitVariant} disabled={busy}>
          {busy ? 'Working…' : props.submitLabel}
        </Button>
      </DialogFooter>
    </fetcher.Form>
  )

  if (!hydrated) {
    return (
      <details className="group" open={Boolean(own)}>
        <summary className={cn(buttonVariants({ variant: props.triggerVariant, size: 'sm' }), 'cursor-pointer list-none')}>
          {props.triggerLabel}
        </summary>
        <div className="mt-2 grid w-[min(30rem,85vw)] gap-3 rounded-lg border bg-card p-4 text-start whitespace-normal shadow-sm">
          <h3 className="text-base font-semibold">{props.title}</h3>
          <div className="text-sm text-muted-foreground">{props.description}</div>
          {body}
        </div>
      </details>
    )
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant={props.triggerVariant}>
          {props.triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogDescription asChild>
            <div>{props.description}</div>
          </DialogDescription>
        </DialogHeader>
        {body}
      </DialogContent>
    </Dialog>
  )
}

/** An action the admin cannot take now: its button, disabled, described by why (e.g. no approved bank details, or their own draft). */
export function BlockedAction({
  label,
  why,
  whyId,
  className,
}: {
  label: string
  why: React.ReactNode
  whyId: string
  className?: string
}) {
  return (
    <div className={cn('grid gap-1', className)}>
      <Button size="sm" disabled aria-describedby={whyId}>
        {label}
      </Button>
      <span id={whyId} className="text-xs text-muted-foreground">
        {why}
      </span>
    </div>
  )
}
