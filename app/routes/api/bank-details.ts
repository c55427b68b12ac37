import { data } from 'react-router'
import { BankDetailsSchema, bankDetailsPayload } from '~/lib/bank-details-schema'
import { readApiBody } from '~/server/api-body.server'
import { requireUser } from '~/server/auth.server'
import { getMaskedBankDetails, saveBankDetails } from '~/server/bank-details.server'
import { AppError } from '~/server/errors.server'
import { apiError } from '~/server/responses.server'
import type { Route } from './+types/bank-details'

// GET/POST /api/profile/bank-details (spec §7). Numbers are always masked here;
// status and approval fields in the body are ignored (only an admin sets them).
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  return data({ bankDetails: await getMaskedBankDetails(user.id) }, { headers: { 'Cache-Control': 'private, no-store' } })
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Method not allowed')
  const user = await requireUser(request, context)
  const parsed = BankDetailsSchema.safeParse(bankDetailsPayload(await readApiBody(request)))
  if (!parsed.success) {
    const fields: Record<string, string[]> = {}
    for (const issue of parsed.error.issues) (fields[String(issue.path[0])] ??= []).push(issue.message)
    return apiError(400, 'Please check the highlighted fields', { fields })
  }
  try {
    const { bankDetails, message } = await saveBankDetails(user.id, parsed.data)
    return data({ bankDetails, message })
  } catch (error) {
    if (error instanceof AppError) return apiError(error.status, error.message, error.fieldErrors ? { fields: error.fieldErrors } : {})
    throw error
  }
}
