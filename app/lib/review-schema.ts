import { z } from '~/lib/zod'
import { MAX_STARS, MIN_STARS } from './ratings'

/**
 * The review rules people can see (issue 18), shared by the review form
 * (Conform), the reply and hide forms and the JSON API: one set of limits and
 * messages.
 */
export const REVIEW_MAX_LENGTH = 2000
export const HIDE_REASON_MAX_LENGTH = 500
/** How long after completion a buyer may review. */
export const REVIEW_WINDOW_DAYS = 365

export const REVIEW_LINK_MESSAGE = 'Reviews cannot contain links or web addresses. Please describe your experience in words.'
export const REVIEW_TOO_LONG_MESSAGE = `Reviews must be at most ${REVIEW_MAX_LENGTH.toLocaleString('en-US')} characters`
export const REPLY_LINK_MESSAGE = 'Replies cannot contain links or web addresses.'
export const REPLY_TOO_LONG_MESSAGE = `Replies must be at most ${REVIEW_MAX_LENGTH.toLocaleString('en-US')} characters`

// A scheme, "www.", or a host name ending in a common top-level domain ("example.com/x", "bit.ly").
const LINK =
  /(\b[a-z][a-z0-9+.-]*:\/\/)|(\bwww\.)|(\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|dev|app|co|ly|me|gg|xyz|info|biz|ru|cn|uk|de|fr|us|ai|sh|link|site|online|shop|store|top|click)\b)/i

/** Whether the text has something a browser or a reader would follow as a link. */
export function containsLink(text: string): boolean {
  return LINK.test(text)
}

function reviewText(required: string, tooLong: string, link: string) {
  return z
    .string({ error: required })
    .transform((v) => v.replace(/\r\n/g, '\n').trim())
    .pipe(
      z
        .string()
        .min(1, required)
        .max(REVIEW_MAX_LENGTH, tooLong)
        .refine((v) => !containsLink(v), link),
    )
}

export const ReviewSchema = z.object({
  stars: z.coerce
    .number({ error: 'Choose a rating from 1 to 5 stars' })
    .int('Choose a rating from 1 to 5 stars')
    .min(MIN_STARS, 'Choose a rating from 1 to 5 stars')
    .max(MAX_STARS, 'Choose a rating from 1 to 5 stars'),
  body: reviewText('Write a few words about your purchase', REVIEW_TOO_LONG_MESSAGE, REVIEW_LINK_MESSAGE),
})
export type ReviewInput = z.output<typeof ReviewSchema>

export const ReplySchema = z.object({
  reply: reviewText('Write your reply', REPLY_TOO_LONG_MESSAGE, REPLY_LINK_MESSAGE),
})

export const HideReviewSchema = z.object({
  reason: z
    .string({ error: 'Give a reason: its author will see it' })
    .trim()
    .min(1, 'Give a reason: its author will see it')
    .max(HIDE_REASON_MAX_LENGTH, `The reason must be at most ${HIDE_REASON_MAX_LENGTH} characters`),
})
