import { data } from 'react-router'
import { BankDetailsFieldsSchema, bankDetailsPayload, BankDetailsSchema } from '~/lib/bank-details-schema'
import { z } from '~/lib/zod'
import { BankDetailsChangeAnswerSchema, MaskedBankDetailsSchema } from '~/server/api/api-answers-money.server'
import { answer } from '~/server/api/api-answers.server'
import { apiRoute, BODY_LIMITS, bodyParsedBy, fieldErrorsOf, RATE_LIMITS } from '~/server/api/api-route.server'
import { getMaskedBankDetails, saveBankDetails } from '~/server/domain/bank-details.server'
import { AppError } from '~/server/domain/errors.server'

// GET/POST /api/profile/bank-details (spec §7). Numbers are always masked here;
// status and approval fields in the body are ignored (only an admin sets them).
const BankDetailsAnswerSchema = z.strictObject({ bankDetails: MaskedBankDetailsSchema.nullable() })

const api = apiRoute({
  policy: { bodyLimit: BODY_LIMITS.json, rateLimit: RATE_LIMITS.bankDetails },
  GET: {
    summary: 'Your bank details, masked',
    tags: ['Profile'],
    answers: { 200: BankDetailsAnswerSchema },
    access: 'user',
    handler: async ({ user }) =>
      data(answer(BankDetailsAnswerSchema, { bankDetails: await getMaskedBankDetails(user.id) }), {
        headers: { 'Cache-Control': 'private, no-store' },
      }),
  },
  POST: {
    summary: 'Save your bank details (pending until an admin approves)',
    tags: ['Profile'],
    answers: { 200: BankDetailsChangeAnswerSchema },
    access: 'user',
    body: bodyParsedBy(BankDetailsFieldsSchema),
    handler: async ({ user, body }) => {
      const parsed = BankDetailsSchema.safeParse(bankDetailsPayload(body))
      if (!parsed.success) throw new AppError(400, 'Please check the highlighted fields', { fieldErrors: fieldErrorsOf(parsed.error) })
      const { bankDetails, message } = await saveBankDetails(user.id, parsed.data)
      return answer(BankDetailsChangeAnswerSchema, { bankDetails, message })
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
