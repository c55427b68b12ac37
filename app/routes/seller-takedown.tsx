import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft } from 'lucide-react'
import { data, Form, Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { Textarea } from '~/components/ui/textarea'
import { COUNTER_NOTICE_MAX_LENGTH, CounterNoticeSchema, REPORT_REASON_LABELS } from '~/lib/report-schema'
import { isAppError } from '~/server/domain/errors.server'
import { fileCounterNotice, sellerTakedown } from '~/server/domain/moderation.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/seller-takedown'

// /seller/takedowns/:id (issue 30): the seller sees why their listing was taken down and answers
// once (a counter-notice); an admin then decides again. A plain form POST.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.listingWrite })]

const constraint = getZodConstraint(CounterNoticeSchema)

const STATUS_TEXT = {
  hidden: 'Hidden from the marketplace. You can answer once; an admin will then decide again.',
  contested: 'Hidden. You answered; an admin will decide again.',
  upheld: 'Hidden. An admin read your answer and kept the takedown.',
  restored: 'Restored: the listing is back as it was.',
} as const

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const takedown = await sellerTakedown(params.id, user.id)
  if (!takedown) throw data('Not found', { status: 404 })
  return { takedown }
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const takedown = await sellerTakedown(params.id, user.id)
  if (!takedown) throw data('Not found', { status: 404 })
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: CounterNoticeSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  if (submission.value.takedownId !== takedown.id) throw data('Not found', { status: 404 })
  try {
    await fileCounterNotice({ listingId: takedown.listingId, sellerId: user.id, counterNotice: submission.value.counterNotice })
  } catch (error) {
    if (!isAppError(error)) throw error
    return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: error.status })
  }
  return redirectWithToast(`/seller/takedowns/${takedown.id}`, {
    title: 'Counter-notice sent',
    description: 'An admin will read it and decide again.',
  })
}

export default function SellerTakedown({ loaderData, actionData }: Route.ComponentProps) {
  const { takedown } = loaderData
  const [form, fields] = useForm({
    id: 'counter-notice',
    lastResult: actionData?.result,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CounterNoticeSchema }),
  })
  return (
    <div className="mx-auto grid max-w-2xl grid-cols-1 gap-6 px-4 py-8">
      <Link to="/seller/dashboard" className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Seller Dashboard
      </Link>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Takedown of “{takedown.listing.title}”</h1>
        <p className="text-sm">{STATUS_TEXT[takedown.status]}</p>
      </div>
      <dl className="grid gap-3 rounded-lg border p-4 text-sm">
        <div>
          <dt className="font-medium">Why</dt>
          <dd>{REPORT_REASON_LABELS[takedown.category]}</dd>
        </div>
        <div>
          <dt className="font-medium">The admin’s reason</dt>
          <dd className="whitespace-pre-line [overflow-wrap:anywhere]">{takedown.reason}</dd>
        </div>
        {takedown.counterNotice ? (
          <div>
            <dt className="font-medium">Your counter-notice</dt>
            <dd className="whitespace-pre-line [overflow-wrap:anywhere]">{takedown.counterNotice}</dd>
          </div>
        ) : null}
        {takedown.decisionReason ? (
          <div>
            <dt className="font-medium">The admin’s decision</dt>
            <dd className="whitespace-pre-line [overflow-wrap:anywhere]">{takedown.decisionReason}</dd>
          </div>
        ) : null}
      </dl>
      {takedown.status === 'hidden' ? (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <h2 className="text-lg font-semibold">Answer this takedown</h2>
          <input type="hidden" name="takedownId" value={takedown.id} />
          <FormErrors meta={form} />
          <Field
            meta={fields.counterNotice}
            control="textarea"
            label="Your counter-notice"
            description={`Why the listing should be restored: that the code is yours, or what you changed. You can answer once. Up to ${COUNTER_NOTICE_MAX_LENGTH.toLocaleString('en-US')} characters.`}
          >
            {(control) => <Textarea {...control} rows={6} />}
          </Field>
          <div>
            <Button type="submit">Send counter-notice</Button>
          </div>
        </Form>
      ) : null}
    </div>
  )
}

export function meta() {
  return [{ title: 'Takedown · Forkmarket' }]
}
