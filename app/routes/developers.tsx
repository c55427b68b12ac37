import { Link } from 'react-router'
import { ApiReferenceViewer } from '~/components/developers/api-reference-viewer'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { accessText } from '~/lib/api-access'
import document from '~/server/api/openapi.generated.json'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/developers'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

interface Operation {
  summary?: string
  description?: string
  tags?: string[]
  'x-access'?: string
  parameters?: { in: string; name: string; description?: string }[]
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
  // The events a seller's endpoint receives (the description's `webhooks`), and the signature headers every delivery carries.
  const webhooks = Object.values(document.webhooks as Record<string, { post: Operation }>).map(({ post }) => post)
  const events = webhooks.map((event) => ({ name: event.summary ?? '', description: event.description ?? '' }))
  const headers = (webhooks[0]?.parameters ?? [])
    .filter((parameter) => parameter.in === 'header')
    .map((parameter) => ({ name: parameter.name, description: parameter.description ?? '' }))
  return {
    description: document.info.description,
    groups: [...groups].map(([tag, operations]) => ({ tag, operations })),
    events,
    headers,
  }
}

/** A description's `code` spans (the OpenAPI text is Markdown) as code, the rest as text. */
function WithCode({ text }: { text: string }) {
  return text.split('`').map((part, index) =>
    index % 2 === 1 ? (
      <code key={index} className="font-mono">
        {part}
      </code>
    ) : (
      part
    ),
  )
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
        (OpenAPI 3.1). Below: every endpoint, the{' '}
        <a href="#webhook-events" className="underline">
          webhook events
        </a>
        , and the{' '}
        <a href="#api-reference" className="underline">
          interactive reference
        </a>
        .
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
      <section aria-labelledby="webhook-events" className="mt-12">
        <h2 id="webhook-events" className="text-xl font-semibold">
          Webhook events
        </h2>
        <p className="mt-2 text-muted-foreground">
          Register an endpoint on{' '}
          <Link to="/seller/webhooks" className="underline">
            your webhooks page
          </Link>
          : each event is a signed JSON POST (Standard Webhooks) with these headers.
        </p>
        <dl className="mt-4 space-y-2">
          {loaderData.headers.map((header) => (
            <div key={header.name}>
              <dt className="font-mono text-sm font-semibold">{header.name}</dt>
              <dd className="text-sm break-words text-muted-foreground">
                <WithCode text={header.description} />
              </dd>
            </div>
          ))}
        </dl>
        <Table label="Webhook events" containerClassName="mt-6">
          <TableHeader>
            <TableRow>
              <TableHead>Event</TableHead>
              <TableHead>When it is sent</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {loaderData.events.map((event) => (
              <TableRow key={event.name}>
                <TableCell className="font-mono text-sm">{event.name}</TableCell>
                <TableCell>
                  <WithCode text={event.description} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </section>
      <section aria-labelledby="api-reference" className="mt-12">
        <h2 id="api-reference" className="text-xl font-semibold">
          Interactive reference
        </h2>
        <ApiReferenceViewer specUrl="/api/openapi.json" />
      </section>
    </div>
  )
}

export const meta: Route.MetaFunction = () => [
  { title: 'Developers: the JSON API | Forkmarket' },
  { name: 'description', content: "Forkmarket's JSON API: every endpoint, and its OpenAPI 3.1 description." },
]
