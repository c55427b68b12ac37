import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { ErrorList } from '~/components/ui/error-list'
import { Field, FormErrors } from '~/components/ui/field'
import { Textarea } from '~/components/ui/textarea'
import { HideReviewSchema, ReplySchema, REVIEW_MAX_LENGTH, ReviewSchema } from '~/lib/review-schema'

/** What the listing page's action answers for a review form (the form it is for, and Conform's result). */
export interface ReviewActionResult {
  intent: 'review' | 'reply' | 'hide-review'
  targetId: string
  result: SubmissionResult<string[]>
}

const reviewConstraint = getZodConstraint(ReviewSchema)
const replyConstraint = getZodConstraint(ReplySchema)
const hideConstraint = getZodConstraint(HideReviewSchema)

const STAR_LABELS = ['1 star: poor', '2 stars: fair', '3 stars: good', '4 stars: very good', '5 stars: excellent'] as const

/** The buyer's review of a completed purchase: stars as native radios, and the text. */
export function ReviewForm({ saleId, lastResult }: { saleId: string; lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'review'
  const [form, fields] = useForm({
    id: `review-${saleId}`,
    lastResult,
    constraint: reviewConstraint,
    // Not on blur: an error appearing or going away under the pointer would move the button mid-click.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReviewSchema }),
  })
  const starsError = `${fields.stars.id}-error`
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4" aria-labelledby="review-form-title" preventScrollReset>
      <h3 id="review-form-title" className="text-lg font-semibold">
        Review your purchase
      </h3>
      <input type="hidden" name="intent" value="review" />
      <input type="hidden" name="saleId" value={saleId} />
      <FormErrors meta={form} />
      <fieldset
        className="grid gap-2"
        aria-invalid={fields.stars.errors ? true : undefined}
        aria-describedby={fields.stars.errors ? starsError : undefined}
      >
        <legend className="mb-1 text-sm font-medium">Rating</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {STAR_LABELS.map((label, index) => (
            <label key={label} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name={fields.stars.name}
                value={String(index + 1)}
                defaultChecked={fields.stars.initialValue === String(index + 1)}
                required
                className="size-4 accent-primary"
              />
              {label}
            </label>
          ))}
        </div>
        <ErrorList id={starsError} errors={fields.stars.errors} />
      </fieldset>
      <Field
        meta={fields.body}
        control="textarea"
        label="Your review"
        description={`What worked, what didn't. Up to ${REVIEW_MAX_LENGTH.toLocaleString('en-US')} characters, no links.`}
      >
        {(props) => <Textarea {...props} rows={5} />}
      </Field>
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Posting…' : 'Post review'}
        </Button>
      </div>
    </Form>
  )
}

/** The seller's one public reply to a review. */
export function ReplyForm({ reviewId, lastResult }: { reviewId: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: `reply-${reviewId}`,
    lastResult,
    constraint: replyConstraint,
    // Not on blur: an error appearing or going away under the pointer would move the button mid-click.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ReplySchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-2" preventScrollReset>
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="reviewId" value={reviewId} />
      <FormErrors meta={form} />
      <Field meta={fields.reply} control="textarea" label="Reply publicly" description="You can reply once. No links.">
        {(props) => <Textarea {...props} rows={3} />}
      </Field>
      <div>
        <Button type="submit" variant="secondary" size="sm">
          Post reply
        </Button>
      </div>
    </Form>
  )
}

/** An admin hides a review; the reason is shown to its author and kept in the audit log. */
export function HideReviewForm({ reviewId, lastResult }: { reviewId: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: `hide-${reviewId}`,
    lastResult,
    constraint: hideConstraint,
    // Not on blur: an error appearing or going away under the pointer would move the button mid-click.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: HideReviewSchema }),
  })
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium text-destructive underline-offset-4 hover:underline">Hide this review</summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 grid gap-2" preventScrollReset>
        <input type="hidden" name="intent" value="hide-review" />
        <input type="hidden" name="reviewId" value={reviewId} />
        <FormErrors meta={form} />
        <Field meta={fields.reason} control="textarea" label="Reason (shown to the review's author)">
          {(props) => <Textarea {...props} rows={2} />}
        </Field>
        <div>
          <Button type="submit" variant="destructive" size="sm">
            Hide review
          </Button>
        </div>
      </Form>
    </details>
  )
}
