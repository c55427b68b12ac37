/**
 * The API's OpenAPI description (app/server/api/openapi.generated.json) as built from
 * app/routes.ts's /api/* routes and their modules' declarations (openapi.server.ts).
 * The route modules read the app's configuration when imported, so the integration
 * test that compares it with the file writes it too:
 *
 *   npm run gen:openapi
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { buildOpenApiDocument, type ApiRouteEntry } from '../../app/server/api/openapi.server.ts'
import { ROUTES } from '../support/route-table.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
export const OPENAPI_FILE = path.join(ROOT, 'app/server/api/openapi.generated.json')

/** The /api/* routes of app/routes.ts with their modules (not the catch-all `api/*`, which answers 404 to anything else). */
export async function apiRoutes(): Promise<ApiRouteEntry[]> {
  const routes = ROUTES.filter((route) => route.path.startsWith('api/') && route.path !== 'api/*')
  return Promise.all(
    routes.map(async (route) => ({
      path: route.path,
      module: (await import(pathToFileURL(path.join(ROOT, 'app', route.file)).href)) as object,
    })),
  )
}

export async function renderOpenApi(): Promise<string> {
  const document = buildOpenApiDocument(await apiRoutes())
  return format(JSON.stringify(document), { ...(await resolveConfig(OPENAPI_FILE)), filepath: OPENAPI_FILE })
}
