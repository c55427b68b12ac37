import { z } from '~/lib/zod'

/**
 * Personal API keys (issue 29): what a key may do, and the form that creates
 * one. Each /api/* endpoint a key may call names one of these scopes in its
 * apiRoute spec; an endpoint that names none refuses keys (admin actions,
 * bank details, purchases and payments, messages).
 */
export const API_KEY_SCOPES = {
  'listings:read': 'Read your listings, drafts included',
  'listings:write': 'Create, edit and delete your listings and upload their images',
  'sales:read': 'Read your sales and sales analytics',
  'payouts:read': 'Read your payouts and payout statements',
} as const

export type ApiKeyScope = keyof typeof API_KEY_SCOPES
export const API_KEY_SCOPE_NAMES = Object.keys(API_KEY_SCOPES) as [ApiKeyScope, ...ApiKeyScope[]]

/** Every key starts with this, so secret scanners (and people) recognise a leaked one. */
export const API_KEY_PREFIX = 'fm_pat_'
export const API_KEY_NAME_MAX = 60
/** Active keys a user may hold at once. */
export const MAX_API_KEYS = 20
/** The furthest expiry the form offers, in days. */
export const API_KEY_MAX_DAYS = 366

export const CREATE_API_KEY_INTENT = 'create-api-key'
export const REVOKE_API_KEY_INTENT = 'revoke-api-key'

/** `YYYY-MM-DD` of a date in UTC (the expiry field's value and limits). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

export const ApiKeyFormSchema = z.object({
  intent: z.literal(CREATE_API_KEY_INTENT),
  name: z
    .string({ error: 'Give the key a name' })
    .trim()
    .min(1, 'Give the key a name')
    .max(API_KEY_NAME_MAX, `Please keep the name under ${API_KEY_NAME_MAX} characters`),
  scopes: z
    .array(z.enum(API_KEY_SCOPE_NAMES, { error: 'Choose a scope from the list' }), { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope'),
  // The key stops working at the end of this day (UTC); none: until revoked.
  expiresOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date')
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'Enter a date')
    .refine((day) => day >= utcDay(new Date()), 'Choose a date from today on')
    .refine((day) => day <= utcDay(new Date(Date.now() + API_KEY_MAX_DAYS * 86_400_000)), `Choose a date within ${API_KEY_MAX_DAYS} days`)
    .optional(),
})

export type ApiKeyForm = z.output<typeof ApiKeyFormSchema>

/** The moment a key created with `expiresOn` stops working: the end of that day, UTC. */
export function expiryOf(expiresOn: string | undefined): Date | null {
  return expiresOn ? new Date(`${expiresOn}T23:59:59.999Z`) : null
}
