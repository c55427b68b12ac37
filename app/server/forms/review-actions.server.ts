/**
 * The listing page's review data and its three review forms (issue 18):
 * the buyer's review, the seller's reply and an admin hiding a review. The
 * rules are reviews.server.ts's; this module reads the forms (Conform + Zod,
 * the same schemas as the browser) and turns refusals into form errors.
 */
import type { Submission as ConformSubmission, SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { HideReviewSchema, ReplySchema, ReviewSchema } from '~/lib/review-schema'
import { z } from '~/lib/zod'
import { AppError, isAppError } from '../domain/errors.server.ts'
import {
  createReview,
  decodeReviewCursor,
  hiddenListingReviews,
  hideReview,
  listingReviews,
  replyToReview,
  type ReviewPage,
  type ViewerListingRelation,
} from '../domain/reviews.server.ts'
import type { PublicUser } from '../domain/users.server.ts'

export async function listingReviewsData(
  listingId: string,
  rating: { ratingCount: number; ratingAverageTenths: number },
  viewer: PublicUser | null,
  cursorParam: string | null,
  /** Read with the listing (getListingPageBySlug): the first page, and the viewer's own review and sale to review. */
  read: { firstPage: ReviewPage; relation: ViewerListingRelation | null },
) {
  // An unreadable page link shows the newest reviews rather than an error page.
  const cursor = cursorParam ? decodeReviewCursor(cursorParam) : null
  const isAdmin = viewer?.isAdmin ?? false
  const [page, hiddenReviews] = await Promise.all([
    // The first page came with the listing; older ones are read on their own.
    cursor ? listingReviews(listingId, { cursor }) : read.firstPage,
    isAdmin ? hiddenListingReviews(listingId) : [],
  ])
  return {
    rating: { average: rating.ratingCount > 0 ? rating.ratingAverageTenths / 10 : null, count: rating.ratingCount },
    page,
    paged: cursor !== null,
    ownReview: read.relation?.ownReview ?? null,
    reviewableSaleId: read.relation?.reviewableSaleId ?? null,
    isAdmin,
    hiddenReviews,
  }
}

type Toast = { title: string; description?: string; type?: 'success' | 'info' | 'error' }
type Submission = ConformSubmission<Record<string, unknown>, string[], unknown>

export type ReviewActionOutcome =
  | { kind: 'done'; toast: Toast }
  | {
      kind: 'answer'
      status: number
      answer: { intent: 'review' | 'reply' | 'hide-review'; targetId: string; result: SubmissionResult<string[]> } | { error: string }
    }

const ReviewFormSchema = ReviewSchema.extend({ saleId: z.string() })
const ReplyFormSchema = ReplySchema.extend({ reviewId: z.string() })
const HideFormSchema = HideReviewSchema.extend({ reviewId: z.string() })

async function run(
  intent: 'review' | 'reply' | 'hide-review',
  submission: Submission,
  targetId: string,
  work: () => Promise<Toast>,
): Promise<ReviewActionOutcome> {
  if (submission.status !== 'success') return { kind: 'answer', status: 400, answer: { intent, targetId, result: submission.reply() } }
  try {
    return { kind: 'done', toast: await work() }
  } catch (error) {
    if (!isAppError(error)) throw error
    return {
      kind: 'answer',
      status: error.status,
      answer: { intent, targetId, result: submission.reply({ formErrors: [error.message], fieldErrors: error.fieldErrors }) },
    }
  }
}

export async function listingReviewsAction(_slug: string, user: PublicUser, form: FormData): Promise<ReviewActionOutcome> {
  const intent = form.get('intent')
  if (intent === 'review') {
    const submission = parseWithZod(form, { schema: ReviewFormSchema })
    const saleId = String(form.get('saleId') ?? '')
    return run('review', submission, saleId, async () => {
      const value = submission.status === 'success' ? submission.value : null
      if (!value) throw new AppError(400, 'Invalid review')
      await createReview({ saleId: value.saleId, buyerId: user.id, review: { stars: value.stars, body: value.body } })
      return { title: 'Review posted', description: 'Thank you: your review is on the listing page.' }
    })
  }
  if (intent === 'reply') {
    const submission = parseWithZod(form, { schema: ReplyFormSchema })
    const reviewId = String(form.get('reviewId') ?? '')
    return run('reply', submission, reviewId, async () => {
      if (submission.status !== 'success') throw new AppError(400, 'Invalid reply')
      await replyToReview({ reviewId: submission.value.reviewId, sellerId: user.id, reply: submission.value.reply })
      return { title: 'Reply posted' }
    })
  }
  if (intent === 'hide-review') {
    if (!user.isAdmin) return { kind: 'answer', status: 403, answer: { error: 'Only an admin can hide a review' } }
    const submission = parseWithZod(form, { schema: HideFormSchema })
    const reviewId = String(form.get('reviewId') ?? '')
    return run('hide-review', submission, reviewId, async () => {
      if (submission.status !== 'success') throw new AppError(400, 'Invalid reason')
      await hideReview({ reviewId: submission.value.reviewId, adminId: user.id, reason: submission.value.reason })
      return { title: 'Review hidden', description: 'Its author sees the reason you gave.' }
    })
  }
  return { kind: 'answer', status: 400, answer: { error: 'Unknown action' } }
}
