import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { ErrorList } from '~/components/ui/error-list'
import { Field, FormErrors } from '~/components/ui/field'
import { Textarea } from '~/components/ui/textarea'
import {
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  REPORT_TARGETS,
  ReportSchema,
  type ReportTarget,
} from '~/lib/report-schema'
import { isAppError } from '~/server/domain/errors.server'
import { fileReport, REPORT_RATE_LIMIT, reportableItem } from '~/server/domain/reports.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/report'

// /report?targetType=listing&targetId=… (issue 30): a signed-in user reports a listing, a review or a
// user with a reason and details. A plain form POST; the item's page links here.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: REPORT_RATE_LIMIT })]

const constraint = getZodConstraint(ReportSchema)

const NOUNS: Record<ReportTarget, string> = { listing: 'listing', review: 'review', user: 'user' }

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const url = new URL(request.url)
  const targetType = url.searchParams.get('targetType') as ReportTarget
  if (!REPORT_TARGETS.includes(targetType)) throw data('Nothing to report', { status: 404 })
  try {
    const item = await reportableItem(targetType, url.searchParams.get('targetId') ?? '', user.id)
    return { item }
  } catch (error) {
    if (isAppError(error)) throw data(error.message, { status: error.status })
    throw error
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const formData = await readFormBody(request, context)
  const submission = parseWithZod(formData, { schema: ReportSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const { item } = await fileReport({ reporterId: user.id, report: submission.value })
    return redirectWithToast(item.path, {
      title: 'Report sent',
      description: 'Thank you. An admin will look at it; you can report this again once they have decided.',
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    if (error.status === 404 || error.status === 403) throw data(error.message, { status: error.status })
    return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: error.status, headers: error.headers })
  }
}

export default function Report({ loaderData, actionData }: Route.ComponentProps) {
  const { item } = loaderData
  const [form, fields] = useForm({
    id: 'report',
    lastResult: actionData?.result,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReportSchema }),
  })
  const reasonError = `${fields.reason.id}-error`
  return (
    <div className="mx-auto grid max-w-2xl grid-cols-1 gap-6 px-4 py-8">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Report this {NOUNS[item.targetType]}</h1>
        <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
          You are reporting{' '}
          <Link to={item.path} className="font-medium text-primary underline-offset-4 hover:underline">
            {item.label}
          </Link>
          . Admins read every report; the person you report does not see who you are.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="grid gap-4">
        <input type="hidden" name="targetType" value={item.targetType} />
        <input type="hidden" name="targetId" value={item.targetId} />
        <FormErrors meta={form} />
        <fieldset
          className="grid gap-2"
          aria-invalid={fields.reason.errors ? true : undefined}
          aria-describedby={fields.reason.errors ? reasonError : undefined}
        >
          <legend className="mb-1 text-sm font-medium">What is wrong?</legend>
          {REPORT_REASONS.map((reason) => (
            <label key={reason} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={fields.reason.name}
                value={reason}
                defaultChecked={fields.reason.initialValue === reason}
                required
                className="size-4 accent-primary"
              />
              {REPORT_REASON_LABELS[reason]}
            </label>
          ))}
          <ErrorList id={reasonError} errors={fields.reason.errors} />
        </fieldset>
        <Field
          meta={fields.details}
          control="textarea"
          label="Details"
          description={`What you found and where (a file, a line, the original's address). Up to ${REPORT_DETAILS_MAX_LENGTH.toLocaleString('en-US')} characters.`}
        >
          {(props) => <Textarea {...props} rows={6} />}
        </Field>
        <div>
          <Button type="submit">Send report</Button>
        </div>
      </Form>
    </div>
  )
}

export function meta() {
  return [{ title: 'Report · Forkmarket' }]
}
