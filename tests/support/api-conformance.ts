import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import addFormats from 'ajv-formats'
import Ajv2020 from 'ajv/dist/2020.js'
import { openApiPath } from '../../app/server/api/openapi.server.ts'
import { OPENAPI_FILE } from '../tools/openapi.ts'
import { ROUTES } from './route-table.ts'

/**
 * Issue 29: every answer an integration test receives from /api/* is one the API's
 * description (app/server/api/openapi.generated.json) gives for that path, method and
 * status, its JSON body valid against the described schema. Objects admit no field
 * they do not describe. A method a path does not serve may answer 405 with `Allow`.
 * callRoute() runs this on each /api/* answer; a test of the apiRoute() helper that
 * builds its own module (not one of app/routes.ts) is not checked.
 */

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: object }> }>
}
interface Document {
  paths: Record<string, Partial<Record<string, Operation>>>
}

const ROOT = path.resolve(import.meta.dirname, '../..')
const NOT_FOUND_ROUTE = 'api/*'
const pointer = (...parts: string[]) => parts.map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/')

/** Objects that list their properties admit no other (zod-openapi says so for strict objects; this holds it for any). */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects)
  if (typeof node !== 'object' || node === null) return
  const schema = node as Record<string, unknown>
  if (schema.properties && !('additionalProperties' in schema)) schema.additionalProperties = false
  Object.values(schema).forEach(closeObjects)
}

let loaded: Promise<{ document: Document; ajv: Ajv2020; pathOf: Map<unknown, string> }> | undefined

function load() {
  loaded ??= (async () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document
    closeObjects(document)
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema(document, 'openapi')
    // The app's /api/* route modules, by their loader (the identity callRoute's caller holds).
    const pathOf = new Map<unknown, string>()
    for (const route of ROUTES.filter((entry) => entry.path.startsWith('api/'))) {
      const mod = (await import(pathToFileURL(path.join(ROOT, 'app', route.file)).href)) as { loader?: unknown }
      pathOf.set(mod.loader, route.path)
    }
    return { document, ajv, pathOf }
  })()
  return loaded
}

function fail(request: Request, response: Response, problem: string): never {
  throw new Error(
    `${request.method} ${new URL(request.url).pathname} → ${response.status}: ${problem} (app/server/api/openapi.generated.json)`,
  )
}

/** Throws when `response` is not an answer the description gives for `request` to the route module `mod`. */
export async function checkApiAnswer(mod: { loader?: unknown }, request: Request, response: Response): Promise<void> {
  const { document, ajv, pathOf } = await load()
  const routePath = pathOf.get(mod.loader)
  if (routePath === undefined) return
  const media = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase()
  const json = media === 'application/json'
  if (routePath === NOT_FOUND_ROUTE) {
    if (response.status !== 404 || !json) fail(request, response, 'an unknown /api/* path answers 404 with { error }')
    return validate(ajv, pointer('components', 'schemas', 'Error'), request, response)
  }
  const documentPath = openApiPath(routePath)
  const operations = document.paths[documentPath]
  if (!operations) fail(request, response, `the route ${documentPath} is not described: run npm run gen:openapi`)
  const method = request.method === 'HEAD' ? 'get' : request.method.toLowerCase()
  const operation = operations[method]
  if (!operation) {
    if (response.status === 405 && response.headers.has('Allow')) return
    fail(request, response, `${method.toUpperCase()} is not described on ${documentPath}, and the answer is not 405 with Allow`)
  }
  const described = operation.responses[String(response.status)]
  if (!described) fail(request, response, `status ${response.status} is not described for ${method.toUpperCase()} ${documentPath}`)
  if (request.method === 'HEAD' || response.body === null) return
  if (!described.content?.[media]) {
    fail(request, response, `the media type ${media || '(none)'} is not described (${Object.keys(described.content ?? {}).join(', ')})`)
  }
  if (!json) return
  const schemaPointer = pointer('paths', documentPath, method, 'responses', String(response.status), 'content', media, 'schema')
  return validate(ajv, schemaPointer, request, response)
}

async function validate(ajv: Ajv2020, schemaPointer: string, request: Request, response: Response) {
  const validator = ajv.getSchema(`openapi#/${schemaPointer}`)
  if (!validator) fail(request, response, `no schema at #/${schemaPointer}`)
  const body: unknown = await response.clone().json()
  if (!validator(body)) {
    const problems = (validator.errors ?? []).map(
      (error) =>
        `${error.instancePath || '(body)'} ${error.message}${error.params && 'additionalProperty' in error.params ? `: ${String(error.params.additionalProperty)}` : ''}`,
    )
    fail(request, response, `the body does not match the description: ${problems.slice(0, 8).join('; ')}`)
  }
}
