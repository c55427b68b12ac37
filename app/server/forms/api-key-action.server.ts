import { parseWithZod } from '@conform-to/zod/v4'
import { ApiKeyFormSchema, CREATE_API_KEY_INTENT } from '~/lib/api-keys'
import { isUuid } from '~/lib/ids'
import { createApiKey, revokeApiKey } from '../domain/api-keys.server.ts'
import { isAppError } from '../domain/errors.server.ts'
import { redirectWithToast } from '../http/responses.server.ts'

/**
 * /profile's "API keys" forms (issue 29). Create answers the page itself
 * (200) with the new secret, never a redirect: the secret would otherwise
 * have to be kept somewhere (a cookie, the database) until the next page
 * showed it. The page is `no-store` and never compressed (profile.tsx).
 * Revoke redirects with a toast.
 */
export async function apiKeyAction(userId: string, form: FormData) {
  if (form.get('intent') === CREATE_API_KEY_INTENT) {
    const submission = parseWithZod(form, { schema: ApiKeyFormSchema })
    if (submission.status !== 'success') return { status: 400, body: { apiKey: submission.reply() } }
    try {
      const { secret, key } = await createApiKey(userId, submission.value)
      return { status: 200, body: { apiKey: submission.reply({ resetForm: true }), createdApiKey: { name: key.name, secret } } }
    } catch (error) {
      if (!isAppError(error)) throw error
      return { status: error.status, body: { apiKey: submission.reply({ formErrors: [error.message] }) } }
    }
  }
  const keyId = form.get('keyId')
  const key = isUuid(keyId)
    ? await revokeApiKey(userId, keyId).catch((error: unknown) => {
        if (isAppError(error)) return null
        throw error
      })
    : null
  const toast = key
    ? { title: 'API key revoked', description: `“${key.name}” (${key.prefix}…) no longer works.`, type: 'success' as const }
    : { title: 'Error', description: 'API key not found (it may have been revoked already)', type: 'error' as const }
  return { response: await redirectWithToast('/profile#api-keys', toast) }
}
