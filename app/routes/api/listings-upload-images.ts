import { z } from '~/lib/zod'
import { apiRoute, BODY_LIMITS, RATE_LIMITS } from '~/server/api/api-route.server'
import { uploadApiImages } from '~/server/api/listing-api.server'
import { AppError } from '~/server/domain/errors.server'
import { readFormBody } from '~/server/http/form-data.server'

// POST /api/listings/upload-images (multipart, repeated `images`) → { images: [urls], rejected }.
const api = apiRoute({
  policy: { apiKeys: { POST: 'listings:write' }, bodyLimit: BODY_LIMITS.upload, rateLimit: RATE_LIMITS.upload },
  POST: {
    summary: 'Upload listing images (multipart, repeated images)',
    tags: ['Listings'],
    answers: {
      200: z.strictObject({ images: z.array(z.string()), rejected: z.array(z.strictObject({ name: z.string(), error: z.string() })) }),
    },
    access: 'user',
    handler: async ({ request, context, user }) => {
      if (!/^multipart\/form-data\b/i.test(request.headers.get('Content-Type') ?? '')) {
        throw new AppError(400, 'Send the images as multipart/form-data in the field "images"')
      }
      return uploadApiImages(user.id, await readFormBody(request, context))
    },
  },
})
export const middleware = api.middleware
export const loader = api.loader
export const action = api.action
