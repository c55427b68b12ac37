import { redirect } from 'react-router'
import { MAX_IMAGE_BYTES } from '~/lib/listing-schema'
import { isAppError } from '~/server/domain/errors.server'
import { chosenFiles } from '~/server/domain/images.server'
import { removeAvatar, setAvatar } from '~/server/domain/seller-profiles.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/profile-avatar'

// Issue 18: /profile's avatar form (multipart). One image, through the listing images' checks and storage.
export const middleware = [routePolicy({ bodyLimit: MAX_IMAGE_BYTES + 64 * 1024, rateLimit: RATE_LIMITS.upload })]

/** Nothing to show: the form lives on /profile. */
export function loader() {
  return redirect('/profile')
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const form = await readFormBody(request, context)
  if (form.get('intent') === 'remove') {
    await removeAvatar(user.id)
    return redirectWithToast('/profile', { title: 'Avatar removed' })
  }
  const [file] = chosenFiles(form.getAll('avatar'))
  if (!file) return redirectWithToast('/profile', { type: 'error', title: 'Error', description: 'Choose an image to upload' })
  try {
    await setAvatar(user.id, file)
  } catch (error) {
    if (!isAppError(error)) throw error
    return redirectWithToast('/profile', { type: 'error', title: 'Error', description: error.message })
  }
  return redirectWithToast('/profile', { title: 'Avatar updated' })
}
