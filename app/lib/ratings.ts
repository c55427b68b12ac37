/**
 * Rating math, in one place (issue 18, docs/decisions/018). Pure: the reviews
 * domain stores its results on the listing (rating_count, rating_average_tenths,
 * rating_score) in the same transaction as the review change; screens, the
 * minimum-rating filter and the top-rated sort only read them.
 *
 * - The average people see is the plain mean, rounded to a tenth of a star.
 * - The top-rated order uses a Bayesian average: every listing starts with
 *   PRIOR_WEIGHT imaginary reviews of PRIOR_MEAN stars, so a single 5-star
 *   review (4.17) does not outrank fifty 4.8s (4.73), and a listing's score
 *   moves towards its own mean as reviews accumulate.
 * - A listing without reviews has score 0: after every reviewed listing.
 */

/** The prior: what a listing is assumed to be worth before its reviews say otherwise. */
export const PRIOR_MEAN = 4
/** How many reviews the prior counts as. */
export const PRIOR_WEIGHT = 5
/** Scores are stored in millionths of a star (integers compare exactly in page cursors). */
export const SCORE_SCALE = 1_000_000
export const MIN_STARS = 1
export const MAX_STARS = 5

export interface RatingTotals {
  /** How many visible reviews. */
  count: number
  /** The sum of their stars. */
  sum: number
}

export interface RatingSummary {
  count: number
  /** The mean rounded to a tenth, in tenths (47 = 4.7 stars); 0 without reviews. */
  averageTenths: number
  /** The Bayesian average in millionths of a star; 0 without reviews. */
  score: number
}

function checkTotals({ count, sum }: RatingTotals) {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count must be a whole number ≥ 0')
  if (!Number.isSafeInteger(sum) || sum < count * MIN_STARS || sum > count * MAX_STARS) {
    throw new RangeError('sum must be between count × 1 and count × 5')
  }
}

/** The plain mean in tenths of a star, rounded half up (4.75 → 48); 0 without reviews. */
export function averageTenths(totals: RatingTotals): number {
  checkTotals(totals)
  if (totals.count === 0) return 0
  // Integer arithmetic: round(10 × sum / count) without floating-point error.
  return Math.floor((20 * totals.sum + totals.count) / (2 * totals.count))
}

/** The Bayesian average in millionths of a star (rounded down); 0 without reviews. */
export function bayesianScore(totals: RatingTotals): number {
  checkTotals(totals)
  if (totals.count === 0) return 0
  return Math.floor(((PRIOR_WEIGHT * PRIOR_MEAN + totals.sum) * SCORE_SCALE) / (PRIOR_WEIGHT + totals.count))
}

export function ratingSummary(totals: RatingTotals): RatingSummary {
  return { count: totals.count, averageTenths: averageTenths(totals), score: bayesianScore(totals) }
}

/** '4.7' for 47 tenths. */
export function formatAverage(tenths: number): string {
  return (tenths / 10).toFixed(1)
}

/** '4.7 out of 5 stars from 12 reviews' (screen readers; the visible text is shorter). */
export function describeRating(tenths: number, count: number): string {
  if (count === 0) return 'No reviews yet'
  return `${formatAverage(tenths)} out of 5 stars from ${count} ${count === 1 ? 'review' : 'reviews'}`
}

/** The minimum-rating filter's choices (whole stars, "and up"). */
export const MIN_RATING_OPTIONS = [4, 3, 2, 1] as const
export type MinRating = (typeof MIN_RATING_OPTIONS)[number]

/** Whether a listing with this shown average passes a minimum-rating filter (the SQL says the same on the stored column). */
export function meetsMinRating(tenths: number, count: number, minRating: number): boolean {
  return count > 0 && tenths >= minRating * 10
}
