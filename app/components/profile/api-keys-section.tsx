import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import * as React from 'react'
import { Form, Link } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button, buttonVariants } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { cn } from '~/components/ui/cn'
import { ErrorList, Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { useHydrated } from '~/components/ui/use-hydrated'
import {
  API_KEY_MAX_DAYS,
  API_KEY_NAME_MAX,
  API_KEY_SCOPE_NAMES,
  API_KEY_SCOPES,
  ApiKeyFormSchema,
  CREATE_API_KEY_INTENT,
  REVOKE_API_KEY_INTENT,
  utcDay,
  type ApiKeyScope,
} from '~/lib/api-keys'
import { formatDate, formatDateTime } from '~/lib/format'

export interface ApiKeyRow {
  id: string
  name: string
  prefix: string
  scopes: ApiKeyScope[]
  createdAt: Date | string
  expiresAt: Date | string | null
  lastUsedAt: Date | string | null
}

/** `?revoke-key=<id>`: the confirm step of Revoke, a link that works without JavaScript (decision 014). */
export const REVOKE_KEY_PARAM = 'revoke-key'

const constraint = getZodConstraint(ApiKeyFormSchema)

/**
 * /profile's "API keys" section (issue 29): create a key (name, scopes,
 * optional expiry), see its secret once, list and revoke keys. Every step is
 * a plain form or link, so all of it works without JavaScript.
 */
export function ApiKeysSection({
  keys,
  revoking,
  lastResult,
  created,
}: {
  keys: ApiKeyRow[]
  revoking: ApiKeyRow | null
  lastResult?: SubmissionResult<string[]>
  created?: { name: string; secret: string }
}) {
  const [form, fields] = useForm({
    id: 'api-key-form',
    lastResult,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ApiKeyFormSchema }),
  })
  const today = utcDay(new Date())
  const latest = utcDay(new Date(Date.now() + API_KEY_MAX_DAYS * 86_400_000))
  return (
    <Card id="api-keys" className="scroll-mt-20">
      <CardHeader>
        <CardTitle asChild>
          <h2>API keys</h2>
        </CardTitle>
        <CardDescription>
          Keys let your own scripts call the JSON API (<code>/api/*</code>) as you, within the scopes you choose: send{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>. A key never reaches bank details, payments, messages or admin actions, and does
          not sign you in on these pages.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {created ? <NewKey {...created} /> : null}
        {revoking ? <RevokeStep apiKey={revoking} /> : null}

        {keys.length ? (
          <Table label="Your API keys">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Scopes</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {keys.map((key) => {
                const expired = key.expiresAt !== null && new Date(key.expiresAt) <= new Date()
                return (
                  <TableRow key={key.id}>
                    <TableCell className="font-medium">{key.name}</TableCell>
                    <TableCell label="Key">
                      <code>{key.prefix}…</code>
                    </TableCell>
                    <TableCell label="Scopes">{key.scopes.join(', ')}</TableCell>
                    <TableCell label="Created">{formatDate(key.createdAt)}</TableCell>
                    <TableCell label="Last used">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Never'}</TableCell>
                    <TableCell label="Expires">
                      {key.expiresAt ? (expired ? `Expired ${formatDate(key.expiresAt)}` : formatDate(key.expiresAt)) : 'Never'}
                    </TableCell>
                    <TableCell className="text-end">
                      <Link
                        to={`/profile?${REVOKE_KEY_PARAM}=${key.id}#api-keys`}
                        preventScrollReset
                        className={buttonVariants({ variant: 'outline', size: 'sm' })}
                        aria-label={`Revoke ${key.name}`}
                      >
                        Revoke
                      </Link>
                    </TableCell>
                  </TableRow>
                )
              })}
            </TableBody>
          </Table>
        ) : (
          <p className="text-sm text-muted-foreground">You have no API keys.</p>
        )}

        <Form method="post" {...getFormProps(form)} className="grid gap-4 border-t pt-6">
          <h3 className="text-base font-semibold">Create a key</h3>
          <input type="hidden" name="intent" value={CREATE_API_KEY_INTENT} />
          <FormErrors meta={form} />
          <Field meta={fields.name} label="Name" description={`What the key is for, up to ${API_KEY_NAME_MAX} characters.`}>
            {(props) => <Input {...props} autoComplete="off" placeholder="e.g. Price sync script" />}
          </Field>
          <fieldset className="grid gap-2" aria-describedby={fields.scopes.errors ? fields.scopes.errorId : undefined}>
            <legend className="mb-1 text-sm font-medium">Scopes</legend>
            {API_KEY_SCOPE_NAMES.map((scope) => (
              <div key={scope} className="flex items-start gap-3">
                <input
                  id={`api-key-scope-${scope}`}
                  type="checkbox"
                  name={fields.scopes.name}
                  value={scope}
                  defaultChecked={fields.scopes.initialValue?.includes(scope)}
                  className="mt-1 size-4 accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                />
                <label htmlFor={`api-key-scope-${scope}`} className="grid gap-0.5 text-sm">
                  <code className="font-medium">{scope}</code>
                  <span className="text-muted-foreground">{API_KEY_SCOPES[scope]}</span>
                </label>
              </div>
            ))}
            <ErrorList id={fields.scopes.errorId} errors={fields.scopes.errors} />
          </fieldset>
          <Field
            meta={fields.expiresOn}
            type="date"
            label="Expires (optional)"
            description="The key stops working at the end of this day (UTC). Leave empty for a key that works until you revoke it."
          >
            {(props) => <Input {...props} min={today} max={latest} className="w-fit" />}
          </Field>
          <div>
            <Button type="submit">Create key</Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  )
}

function NewKey({ name, secret }: { name: string; secret: string }) {
  const hydrated = useHydrated()
  const [copied, setCopied] = React.useState(false)
  return (
    <Alert role="status" className="grid gap-2">
      <AlertTitle>Your new key “{name}”</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>Copy it now: it is shown only once. We keep only a hash of it, so it cannot be shown again.</p>
        <code
          data-testid="new-api-key"
          className="block rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all text-foreground select-all"
        >
          {secret}
        </code>
        {hydrated ? (
          <div>
            <Button
              type="button"
              size="sm"
              variant="secondary"
              onClick={() => {
                void navigator.clipboard.writeText(secret).then(() => setCopied(true))
              }}
            >
              {copied ? 'Copied' : 'Copy key'}
            </Button>
            <span className="sr-only" aria-live="polite">
              {copied ? 'The key was copied to the clipboard' : ''}
            </span>
          </div>
        ) : null}
      </AlertDescription>
    </Alert>
  )
}

function RevokeStep({ apiKey }: { apiKey: ApiKeyRow }) {
  return (
    <div role="region" aria-labelledby="revoke-key-title" className="grid gap-3 rounded-lg border border-destructive/50 p-4">
      <h3 id="revoke-key-title" className="text-base font-semibold">
        Revoke “{apiKey.name}”?
      </h3>
      <p className="text-sm text-muted-foreground">
        Anything using <code>{apiKey.prefix}…</code> stops working at once. This cannot be undone.
      </p>
      <Form method="post" action="/profile" className="flex flex-wrap gap-2">
        <input type="hidden" name="intent" value={REVOKE_API_KEY_INTENT} />
        <input type="hidden" name="keyId" value={apiKey.id} />
        <Button type="submit" variant="destructive">
          Revoke key
        </Button>
        <Link to="/profile#api-keys" preventScrollReset className={cn(buttonVariants({ variant: 'outline' }))}>
          Cancel
        </Link>
      </Form>
    </div>
  )
}
