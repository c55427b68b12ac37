import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { useActionData, useFetcher } from 'react-router'
import { Button } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { showToast } from '~/components/ui/toaster'
import { ForkUrlSchema } from '~/lib/escrow-schemas'
import { z } from '~/lib/zod'

/** The seller hands over the buyer's fork (design.md §5: paid → delivered). */
export const DeliverSchema = z.object({
  intent: z.literal('deliver'),
  transactionId: z.string(),
  forkUrl: ForkUrlSchema,
})

export interface DashboardActionResult {
  intent?: string
  targetId?: string
  result?: SubmissionResult<string[]>
}

const constraint = getZodConstraint(DeliverSchema)

export function DeliverForm({ transactionId }: { transactionId: string }) {
  const fetcher = useFetcher<DashboardActionResult>({ key: `deliver-${transactionId}` })
  // Without JavaScript the form posts as a page navigation: its result arrives as the route's action data.
  const actionData = useActionData<DashboardActionResult>()
  const lastResult = fetcher.data?.result ?? (actionData?.targetId === transactionId ? actionData.result : undefined)
  const [form, fields] = useForm({
    id: `deliver-${transactionId}`,
    lastResult,
    constraint,
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: DeliverSchema }),
  })
  const failure = fetcher.data?.result?.status === 'error' ? fetcher.data.result.error?.['']?.[0] : undefined
  useEffect(() => {
    if (failure) showToast({ type: 'error', title: 'Delivery failed', description: failure })
  }, [failure, fetcher.data])
  const busy = fetcher.state !== 'idle'

  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="grid gap-2" aria-label="Deliver this sale">
      <input type="hidden" name="intent" value="deliver" />
      <input type="hidden" name="transactionId" value={transactionId} />
      <FormErrors meta={form} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <Field
          meta={fields.forkUrl}
          label="Fork URL"
          description="The buyer’s copy of the app on the code-hosting platform (https://…)."
          className="flex-1"
          type="url"
        >
          {(props) => <Input {...props} placeholder="https://github.com/buyer/app" autoComplete="off" />}
        </Field>
        <Button type="submit" className="sm:mt-6" disabled={busy}>
          {busy ? 'Delivering…' : 'Deliver'}
        </Button>
      </div>
    </fetcher.Form>
  )
}
