import { apiError } from '~/server/responses.server'

// POST /api/listings/upload-images (multipart, repeated `images`) → { images: [urls] }.
export { uploadImagesApiAction as action } from '~/server/listing-api.server'

export function loader() {
  return apiError(405, 'Method not allowed')
}
