import { data } from 'react-router'
import { z } from '~/lib/zod'
import { apiRoute } from '~/server/api/api-route.server'
import document from '~/server/api/openapi.generated.json'

// GET /api/openapi.json (issue 29): the API's OpenAPI 3.1 description, generated from the route modules'
// declarations (npm run gen:openapi). The same for everyone: a shared cache may keep it for five minutes.
const api = apiRoute({
  GET: {
    summary: "This API's OpenAPI 3.1 description",
    tags: ['Meta'],
    answers: { 200: z.looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.looseObject({}) }) },
    access: 'public',
    handler: () => data(document, { headers: { 'Cache-Control': 'public, max-age=300' } }),
  },
})
export const loader = api.loader
export const action = api.action
