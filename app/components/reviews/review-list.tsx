import { BadgeCheck, EyeOff } from 'lucide-react'
import { Link } from 'react-router'
import { Avatar, AvatarFallback, AvatarImage } from '~/components/ui/avatar'
import { formatDate } from '~/lib/format'
import type { ReviewView } from '~/server/domain/reviews.server'
import { HideReviewForm, ReplyForm } from './deferred-review-forms'
import { Stars } from './rating-stars'
import type { ReviewActionResult } from './review-forms'

type Serialized<T> = { [K in keyof T]: T[K] extends Date ? Date | string : T[K] extends object | null ? Serialized<T[K]> : T[K] }
export type ReviewItem = Serialized<ReviewView>

interface ReviewListProps {
  reviews: ReviewItem[]
  /** The listing's seller is viewing: each review without a reply gets the reply form. */
  canReply: boolean
  /** An admin is viewing: each visible review gets the hide form. */
  canHide: boolean
  actionResult?: ReviewActionResult | null
}

export function ReviewCard({ review, canReply, canHide, actionResult }: { review: ReviewItem } & Omit<ReviewListProps, 'reviews'>) {
  const resultFor = (intent: ReviewActionResult['intent']) =>
    actionResult?.intent === intent && actionResult.targetId === review.id ? actionResult.result : undefined
  return (
    <article className="grid gap-3 rounded-lg border p-4" aria-label={`Review by ${review.author.displayName}`}>
      <div className="flex flex-wrap items-center gap-3">
        <Avatar className="size-8">
          {review.author.avatarUrl ? <AvatarImage src={review.author.avatarUrl} alt="" /> : null}
          <AvatarFallback>{review.author.displayName.slice(0, 1).toUpperCase()}</AvatarFallback>
        </Avatar>
        <div className="grid min-w-0 gap-0.5">
          <p className="text-sm font-medium">{review.author.displayName}</p>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            <Stars value={review.stars} />
            <span className="sr-only">{`${review.stars} out of 5 stars`}</span>
            <time dateTime={new Date(review.createdAt).toISOString()}>{formatDate(review.createdAt)}</time>
          </p>
        </div>
        <p className="ms-auto flex items-center gap-1 text-xs font-medium text-emerald-700 dark:text-emerald-400">
          <BadgeCheck aria-hidden="true" className="size-4" />
          Verified purchase
        </p>
      </div>
      {review.hidden ? (
        <p className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm">
          <EyeOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            Hidden by an admin on {formatDate(review.hidden.hiddenAt)}: {review.hidden.reason}
          </span>
        </p>
      ) : null}
      <p className="text-sm whitespace-pre-line">{review.body}</p>
      {review.sellerReply ? (
        <div className="grid gap-1 border-s-2 ps-3 text-sm">
          <p className="font-medium">Reply from the seller</p>
          <p className="whitespace-pre-line text-muted-foreground">{review.sellerReply.body}</p>
        </div>
      ) : canReply && !review.hidden ? (
        <ReplyForm reviewId={review.id} lastResult={resultFor('reply')} />
      ) : null}
      {canHide && !review.hidden ? <HideReviewForm reviewId={review.id} lastResult={resultFor('hide-review')} /> : null}
      {/* Issue 30: anyone but the seller may report a review (the report form refuses its own author). */}
      {canReply || review.hidden ? null : (
        <Link
          to={`/report?targetType=review&targetId=${review.id}`}
          className="w-fit text-xs text-muted-foreground underline underline-offset-4 hover:text-foreground"
        >
          Report this review<span className="sr-only"> by {review.author.displayName}</span>
        </Link>
      )}
    </article>
  )
}

export function ReviewList({ reviews, canReply, canHide, actionResult }: ReviewListProps) {
  if (reviews.length === 0) return <p className="text-sm text-muted-foreground">No reviews yet.</p>
  return (
    <ul className="grid gap-4" aria-label="Reviews">
      {reviews.map((review) => (
        <li key={review.id}>
          <ReviewCard review={review} canReply={canReply} canHide={canHide} actionResult={actionResult} />
        </li>
      ))}
    </ul>
  )
}

/** "Older reviews" (keyset: the next page starts after the last review shown) and back to the newest. */
export function ReviewPager({ slug, nextCursor, paged }: { slug: string; nextCursor: string | null; paged: boolean }) {
  if (!nextCursor && !paged) return null
  return (
    <nav aria-label="Review pages" className="flex flex-wrap gap-4 text-sm font-medium">
      {paged ? (
        <Link to={`/listing/${slug}#reviews`} className="underline underline-offset-4" preventScrollReset>
          Newest reviews
        </Link>
      ) : null}
      {nextCursor ? (
        <Link
          to={`/listing/${slug}?reviews=${encodeURIComponent(nextCursor)}#reviews`}
          className="underline underline-offset-4"
          preventScrollReset
        >
          Older reviews
        </Link>
      ) : null}
    </nav>
  )
}
