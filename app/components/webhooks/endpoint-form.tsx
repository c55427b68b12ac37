import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { Button } from '~/components/ui/button'
import { ErrorList, Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import {
  SAVE_WEBHOOK_INTENT,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WebhookEndpointFormSchema,
  type WebhookEventType,
} from '~/lib/webhooks'

const constraint = getZodConstraint(WebhookEndpointFormSchema)

/** Registers an endpoint (/seller/webhooks) or edits one (/seller/webhooks/:id): a plain form POST. */
export function EndpointForm({
  id,
  lastResult,
  defaultValue,
  submitLabel,
}: {
  id: string
  lastResult?: SubmissionResult<string[]>
  defaultValue?: { url: string; description: string; events: WebhookEventType[] }
  submitLabel: string
}) {
  const [form, fields] = useForm({
    id,
    lastResult,
    constraint,
    defaultValue,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: WebhookEndpointFormSchema }),
  })
  const checked = new Set(fields.events.initialValue ?? [])
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <input type="hidden" name="intent" value={SAVE_WEBHOOK_INTENT} />
      <FormErrors meta={form} />
      <Field
        meta={fields.url}
        type="url"
        label="Endpoint URL"
        description="Where we POST each event. https in production; http://localhost works while you develop."
      >
        {(props) => <Input {...props} autoComplete="off" placeholder="https://example.com/webhooks/forkmarket" />}
      </Field>
      <fieldset className="grid gap-2" aria-describedby={fields.events.errors ? fields.events.errorId : undefined}>
        <legend className="mb-1 text-sm font-medium">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <div key={type} className="flex items-start gap-3">
            <input
              id={`${id}-event-${type}`}
              type="checkbox"
              name={fields.events.name}
              value={type}
              defaultChecked={checked.has(type)}
              className="mt-1 size-4 accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            />
            <label htmlFor={`${id}-event-${type}`} className="grid gap-0.5 text-sm">
              <code className="font-medium">{type}</code>
              <span className="text-muted-foreground">{WEBHOOK_EVENTS[type]}</span>
            </label>
          </div>
        ))}
        <ErrorList id={fields.events.errorId} errors={fields.events.errors} />
      </fieldset>
      <Field
        meta={fields.description}
        label="Description (optional)"
        description={`A note for yourself, up to ${WEBHOOK_DESCRIPTION_MAX} characters.`}
      >
        {(props) => <Input {...props} autoComplete="off" />}
      </Field>
      <div>
        <Button type="submit">{submitLabel}</Button>
      </div>
    </Form>
  )
}
