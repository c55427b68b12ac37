import { Link } from 'react-router'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { accessText } from '~/lib/api-access'
import document from '~/server/api/openapi.generated.json'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/developers'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

interface Operation {
  summary?: string
  tags?: string[]
  'x-access'?: string
}

/** The API reference (issue 29): every operation of the OpenAPI description, server-rendered, grouped by tag. */
export function loader() {
  const groups = new Map<string, { method: string; path: string; summary: string; access: string }[]>()
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? 'Other'
      if (!groups.has(tag)) groups.set(tag, [])
      groups
        .get(tag)!
        .push({ method: method.toUpperCase(), path, summary: operation.summary ?? '', access: accessText(operation['x-access'] ?? '') })
    }
  }
  return { description: document.info.description, groups: [...groups].map(([tag, operations]) => ({ tag, operations })) }
}

export default function Developers({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight">Developers: the JSON API</h1>
      <p className="mt-4 text-muted-foreground">{loaderData.description}</p>
      <p className="mt-4">
        The full description, with every parameter, answer and error:{' '}
        <Link reloadDocument to="/api/openapi.json" className="underline">
          /api/openapi.json
        </Link>{' '}
        (OpenAPI 3.1).
      </p>
      {loaderData.groups.map(({ tag, operations }) => (
        <section key={tag} aria-labelledby={`api-${tag}`} className="mt-10">
          <h2 id={`api-${tag}`} className="text-xl font-semibold">
            {tag}
          </h2>
          <Table label={`${tag} endpoints`} containerClassName="mt-4">
            <TableHeader>
              <TableRow>
                <TableHead>Method</TableHead>
                <TableHead>Path</TableHead>
                <TableHead>What it does</TableHead>
                <TableHead>Who</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {operations.map((operation) => (
                <TableRow key={`${operation.method} ${operation.path}`}>
                  <TableCell className="font-mono text-sm">{operation.method}</TableCell>
                  <TableCell className="font-mono text-sm break-all">{operation.path}</TableCell>
                  <TableCell>{operation.summary}</TableCell>
                  <TableCell>{operation.access}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </section>
      ))}
    </div>
  )
}

export const meta: Route.MetaFunction = () => [
  { title: 'Developers: the JSON API | Forkmarket' },
  { name: 'description', content: "Forkmarket's JSON API: every endpoint, and its OpenAPI 3.1 description." },
]
