import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { NativeSelect } from '~/components/ui/native-select'
import { Textarea } from '~/components/ui/textarea'
import { ModerationDecisionSchema, REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason, type ReportTarget } from '~/lib/report-schema'
import type { ReportedItem } from '~/server/domain/reports.server'

/** One item of the admin's moderation queue, as the loader serialises it. */
export interface ModerationItemView {
  /** A hidden review: when (serialised) and why. */
  item: Omit<ReportedItem, 'hidden'> & { hidden: { reason: string; at: string } | null }
  openReports: number
  reports: { id: string; reason: ReportReason; details: string; status: string; createdAt: string; reporter: { username: string } }[]
  takedown: { status: string; category: ReportReason; reason: string; counterNotice: string | null; takenDownAt: string } | null
  seller: {
    username: string
    listings: number
    completedSales: number
    takedowns: number
    reportsAgainst: number
    memberSince: string
  } | null
  /** Whom a suspension would stop: the listing's seller, the review's author, the user reported. */
  accountable: { id: string; username: string } | null
  /** They have a suspension requested or active (the Suspensions section lists it). */
  suspended: boolean
}

export interface SuspensionItemView {
  id: string
  status: 'requested' | 'active'
  reason: string
  requestedAt: string
  user: { id: string; username: string; displayName: string }
  requestedBy: { id: string; username: string }
}

/** A suspension waiting for a second admin, or active; the decisions open to this admin. */
export function SuspensionItem(props: { suspension: SuspensionItemView; viewerId: string; actionData?: ModerationActionResult | null }) {
  const { suspension, viewerId, actionData } = props
  const item = { targetType: 'user' as const, targetId: suspension.user.id }
  const resultFor = (intent: Intent) =>
    actionData && actionData.intent === intent && actionData.targetId === item.targetId ? actionData.result : undefined
  const headingId = `suspension-${suspension.id}`
  return (
    <article aria-labelledby={headingId} className="grid gap-3 rounded-lg border bg-card p-4 text-card-foreground">
      <h3 id={headingId} className="font-semibold [overflow-wrap:anywhere]">
        {suspension.user.displayName} (@{suspension.user.username})
      </h3>
      <p className="text-sm [overflow-wrap:anywhere]">
        {suspension.status === 'requested' ? 'Suspension requested' : 'Suspended'} by @{suspension.requestedBy.username}: “
        {suspension.reason}”
      </p>
      <div className="grid gap-3 md:grid-cols-2">
        {suspension.status === 'requested' && suspension.requestedBy.id !== viewerId ? (
          <DecisionForm intent="approve-suspension" item={item} lastResult={resultFor('approve-suspension')} />
        ) : null}
        {suspension.status === 'requested' && suspension.requestedBy.id === viewerId ? (
          <p className="text-sm text-muted-foreground">Waiting for a second admin to approve it.</p>
        ) : null}
        {suspension.status === 'requested' ? (
          <DecisionForm intent="cancel-suspension" item={item} lastResult={resultFor('cancel-suspension')} />
        ) : (
          <DecisionForm intent="lift-suspension" item={item} lastResult={resultFor('lift-suspension')} />
        )}
      </div>
    </article>
  )
}

export interface ModerationActionResult {
  intent: string
  targetId: string
  result: SubmissionResult<string[]>
}

type Intent =
  | 'dismiss'
  | 'take-down'
  | 'uphold'
  | 'restore'
  | 'hide-review'
  | 'restore-review'
  | 'request-suspension'
  | 'approve-suspension'
  | 'cancel-suspension'
  | 'lift-suspension'

const constraint = getZodConstraint(ModerationDecisionSchema)

const TITLES: Record<Intent, { label: string; submit: string; help: string }> = {
  dismiss: { label: 'Note for the record', submit: 'Dismiss reports', help: 'Nothing wrong found: the reports are closed.' },
  'take-down': {
    label: 'Reason the seller sees',
    submit: 'Take down',
    help: 'The listing leaves the marketplace and its open checkouts are cancelled.',
  },
  uphold: { label: 'Note for the record', submit: 'Uphold takedown', help: 'The listing stays hidden.' },
  restore: { label: 'Note for the record', submit: 'Restore listing', help: 'The listing is shown again as it was before.' },
  'hide-review': {
    label: 'Reason its author sees',
    submit: 'Hide review',
    help: 'The review leaves the listing page and its rating; its reports are closed.',
  },
  'restore-review': { label: 'Note for the record', submit: 'Restore review', help: 'The review is shown on the listing page again.' },
  'request-suspension': {
    label: 'Why suspend',
    submit: 'Request suspension',
    help: 'A second admin must approve it: then sign-in stops, the listings are hidden and payouts are held.',
  },
  'approve-suspension': { label: '', submit: 'Approve suspension', help: 'You are the second admin: the suspension starts now.' },
  'cancel-suspension': { label: 'Note for the record', submit: 'Cancel request', help: 'The user is not suspended.' },
  'lift-suspension': { label: 'Note for the record', submit: 'Lift suspension', help: 'Sign-in, listings and payouts come back.' },
}

export function DecisionForm(props: {
  intent: Intent
  item: Pick<ModerationItemView['item'], 'targetType' | 'targetId'>
  /** Makes the form's id unique when one target has the same form in several places. */
  formKey?: string
  defaultCategory?: ReportReason
  lastResult?: SubmissionResult<string[]>
  /** Said before the help: whom the decision is about ("Suspends @bea, the review's author."). */
  subject?: string
}) {
  const { intent, item } = props
  const [form, fields] = useForm({
    id: `${intent}-${props.formKey ?? item.targetId}`,
    lastResult: props.lastResult,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ModerationDecisionSchema }),
  })
  const title = TITLES[intent]
  return (
    <Form method="post" {...getFormProps(form)} aria-label={title.submit} className="grid gap-2 rounded-md border p-3" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="targetType" value={item.targetType} />
      <input type="hidden" name="targetId" value={item.targetId} />
      <FormErrors meta={form} />
      <p className="text-sm text-muted-foreground">
        {props.subject ? <span className="font-medium text-foreground">{props.subject} </span> : null}
        {title.help}
      </p>
      {intent === 'take-down' ? (
        <Field meta={fields.category} control="select" label="Why">
          {(control) => (
            <NativeSelect {...control} defaultValue={control.defaultValue ?? props.defaultCategory}>
              {REPORT_REASONS.map((reason) => (
                <option key={reason} value={reason}>
                  {REPORT_REASON_LABELS[reason]}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      ) : null}
      {intent === 'approve-suspension' ? null : (
        <Field meta={fields.note} control="textarea" label={title.label}>
          {(control) => <Textarea {...control} rows={2} />}
        </Field>
      )}
      <div>
        <Button type="submit" size="sm" variant={intent === 'take-down' ? 'destructive' : 'secondary'}>
          {title.submit}
        </Button>
      </div>
    </Form>
  )
}

const ACCOUNTABLE_WORDS: Record<ReportTarget, string> = {
  listing: 'the listing’s seller',
  review: 'the review’s author',
  user: 'the user reported',
}

/** An item, every report of it, its seller's history and the decisions open to the admin. */
export function ModerationItem({
  entry,
  actionData,
  headingLevel = 2,
  offerSuspension = true,
}: {
  entry: ModerationItemView
  actionData?: ModerationActionResult | null
  /** 3 inside a section of the page. */
  headingLevel?: 2 | 3
  /** False where only a restore is asked for (what moderation hid). */
  offerSuspension?: boolean
}) {
  const { item, takedown, seller, accountable } = entry
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const resultFor = (intent: Intent) =>
    actionData && actionData.intent === intent && actionData.targetId === item.targetId ? actionData.result : undefined
  const topReason = entry.reports[0]?.reason
  const headingId = `item-${item.targetId}`
  return (
    <article aria-labelledby={headingId} className="grid gap-4 rounded-lg border bg-card p-4 text-card-foreground">
      <header className="grid gap-1">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
          {item.targetType} · {entry.openReports} open {entry.openReports === 1 ? 'report' : 'reports'}
        </p>
        <Heading id={headingId} className="text-lg font-semibold [overflow-wrap:anywhere]">
          <Link to={item.path} className="text-primary underline-offset-4 hover:underline">
            {item.label}
          </Link>
        </Heading>
        {item.hidden ? (
          <p className="text-sm">
            Hidden <time dateTime={item.hidden.at}>{new Date(item.hidden.at).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC</time>: “
            {item.hidden.reason}”
          </p>
        ) : null}
        {takedown ? (
          <p className="text-sm">
            Taken down ({REPORT_REASON_LABELS[takedown.category]}), now <strong>{takedown.status}</strong>: “{takedown.reason}”
          </p>
        ) : null}
        {takedown?.counterNotice ? (
          <blockquote className="border-s-2 ps-3 text-sm [overflow-wrap:anywhere]">
            <p className="font-medium">The seller’s counter-notice</p>
            <p className="whitespace-pre-line">{takedown.counterNotice}</p>
          </blockquote>
        ) : null}
      </header>
      {seller ? (
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-5" aria-label={`History of @${seller.username}`}>
          <div>
            <dt className="text-muted-foreground">Seller</dt>
            <dd>@{seller.username}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Listings</dt>
            <dd>{seller.listings}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Completed sales</dt>
            <dd>{seller.completedSales}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Takedowns</dt>
            <dd>{seller.takedowns}</dd>
          </div>
          <div>
            <dt className="text-muted-foreground">Reports against</dt>
            <dd>{seller.reportsAgainst}</dd>
          </div>
        </dl>
      ) : null}
      {entry.reports.length > 0 ? (
        <ul className="grid gap-2" aria-label="Reports">
          {entry.reports.map((report) => (
            <li key={report.id} className="rounded-md bg-muted p-3 text-sm [overflow-wrap:anywhere]">
              <p className="font-medium">
                {REPORT_REASON_LABELS[report.reason]} · @{report.reporter.username} ·{' '}
                <time dateTime={report.createdAt}>{new Date(report.createdAt).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC</time> ·{' '}
                {report.status}
              </p>
              <p className="whitespace-pre-line">{report.details}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="grid gap-3 md:grid-cols-2">
        {item.targetType === 'listing' && !takedown ? (
          <DecisionForm intent="take-down" item={item} defaultCategory={topReason} lastResult={resultFor('take-down')} />
        ) : null}
        {takedown?.status === 'contested' ? <DecisionForm intent="uphold" item={item} lastResult={resultFor('uphold')} /> : null}
        {takedown ? <DecisionForm intent="restore" item={item} lastResult={resultFor('restore')} /> : null}
        {item.targetType === 'review' && !item.hidden ? (
          <DecisionForm intent="hide-review" item={item} lastResult={resultFor('hide-review')} />
        ) : null}
        {item.targetType === 'review' && item.hidden ? (
          <DecisionForm intent="restore-review" item={item} lastResult={resultFor('restore-review')} />
        ) : null}
        {entry.openReports > 0 ? <DecisionForm intent="dismiss" item={item} lastResult={resultFor('dismiss')} /> : null}
        {offerSuspension && accountable && !entry.suspended ? (
          <DecisionForm
            intent="request-suspension"
            item={{ targetType: 'user', targetId: accountable.id }}
            formKey={`${item.targetType}-${item.targetId}`}
            subject={`Suspends @${accountable.username}, ${ACCOUNTABLE_WORDS[item.targetType]}.`}
            lastResult={
              actionData?.intent === 'request-suspension' && actionData.targetId === accountable.id ? actionData.result : undefined
            }
          />
        ) : null}
      </div>
    </article>
  )
}
