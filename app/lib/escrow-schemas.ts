import { isValidForkUrl } from '~/lib/escrow'
import { z } from '~/lib/zod'

/**
 * What a seller types to deliver a sale, shared by the dashboard's Deliver
 * form and POST /api/seller/transactions/:id/deliver (one set of limits).
 */
export const FORK_URL_MAX = 2000

export const ForkUrlSchema = z
  .string({ error: 'Fork URL is required' })
  .trim()
  .min(1, 'Fork URL is required')
  .max(FORK_URL_MAX, `The fork URL must be at most ${FORK_URL_MAX} characters`)
  .refine(isValidForkUrl, 'Enter the https:// link to the buyer’s fork')
