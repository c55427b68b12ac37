import { deferred } from '~/components/ui/deferred'

// The review, reply and hide forms (Conform, Zod, the review rules) load only for whoever sees one:
// a buyer who can review, the listing's seller, an admin; never for an anonymous visitor.
const reviewForms = deferred(() => import('./review-forms'))
export const ReviewForm = reviewForms.component('ReviewForm')
export const ReplyForm = reviewForms.component('ReplyForm')
export const HideReviewForm = reviewForms.component('HideReviewForm')
