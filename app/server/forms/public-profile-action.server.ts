import { parseWithZod } from '@conform-to/zod/v4'
import { SellerProfileSchema } from '~/lib/seller-profile-schema'
import { isAppError } from '../domain/errors.server.ts'
import { updateSellerProfile } from '../domain/seller-profiles.server.ts'
import { redirectWithToast } from '../http/responses.server.ts'

/**
 * /profile's "Public profile" form (issue 18): a redirect with a toast when
 * saved, else `{ publicProfile: SubmissionResult }` and its status for the form.
 */
export async function savePublicProfile(userId: string, form: FormData) {
  const submission = parseWithZod(form, { schema: SellerProfileSchema })
  if (submission.status !== 'success') return { status: 400, body: { publicProfile: submission.reply() } }
  try {
    const saved = await updateSellerProfile(userId, submission.value)
    return {
      response: await redirectWithToast('/profile', {
        title: 'Profile saved',
        description: `Your seller page is /sellers/${saved.username}.`,
      }),
    }
  } catch (error) {
    if (!isAppError(error)) throw error
    return {
      status: error.status,
      body: { publicProfile: submission.reply({ formErrors: error.fieldErrors ? [] : [error.message], fieldErrors: error.fieldErrors }) },
    }
  }
}
