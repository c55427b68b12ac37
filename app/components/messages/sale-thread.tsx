import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Eye, MessagesSquare } from 'lucide-react'
import * as React from 'react'
import { Form, useNavigation, useRevalidator } from 'react-router'
import { Alert, AlertDescription } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { Textarea } from '~/components/ui/textarea'
import { formatDateTime } from '~/lib/format'
import {
  ADMIN_CAN_READ_NOTICE,
  ADMIN_READING_NOTICE,
  MESSAGE_MAX_LENGTH,
  SendMessageSchema,
  THREAD_REFRESH_MS,
} from '~/lib/sale-message-schema'

export interface ThreadMessageView {
  id: string
  body: string
  createdAt: Date | string
  author: { role: 'buyer' | 'seller'; username: string; displayName: string }
  mine: boolean
}

const constraint = getZodConstraint(SendMessageSchema)

/**
 * Asks the loader again every THREAD_REFRESH_MS while the page is visible and
 * nothing is being sent (JavaScript on); without JavaScript the page is
 * reloaded by hand, or after sending.
 */
function useRefreshWhileVisible() {
  const revalidator = useRevalidator()
  const navigation = useNavigation()
  const busy = revalidator.state !== 'idle' || navigation.state !== 'idle'
  React.useEffect(() => {
    if (busy) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void revalidator.revalidate()
    }, THREAD_REFRESH_MS)
    const onVisible = () => {
      if (document.visibilityState === 'visible') void revalidator.revalidate()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [busy, revalidator])
}

/** "New message from @ada" for screen readers when a refresh brings messages from the other side. */
function useArrivals(messages: ThreadMessageView[]): string {
  const seen = React.useRef<Set<string> | null>(null)
  const [announcement, setAnnouncement] = React.useState('')
  React.useEffect(() => {
    const ids = new Set(messages.map((m) => m.id))
    if (seen.current) {
      const fresh = messages.filter((m) => !seen.current!.has(m.id) && !m.mine)
      if (fresh.length === 1) setAnnouncement(`New message from @${fresh[0]!.author.username}: ${fresh[0]!.body.slice(0, 200)}`)
      else if (fresh.length > 1) setAnnouncement(`${fresh.length} new messages`)
    }
    seen.current = ids
  }, [messages])
  return announcement
}

function MessageItem({ message }: { message: ThreadMessageView }) {
  return (
    <li
      className={
        message.mine
          ? 'ms-6 grid gap-1 rounded-lg border border-primary/30 bg-primary/5 p-3 sm:ms-16'
          : 'me-6 grid gap-1 rounded-lg border bg-card p-3 sm:me-16'
      }
      data-message-id={message.id}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
        <span className="font-medium text-foreground">
          {message.mine ? 'You' : message.author.displayName}{' '}
          <span className="font-normal text-muted-foreground">
            (@{message.author.username}, {message.author.role})
          </span>
        </span>
        <time dateTime={new Date(message.createdAt).toISOString()}>{formatDateTime(message.createdAt)}</time>
      </div>
      {/* Plain text: a link stays text (no anchor, no HTML), line breaks are kept. */}
      <p className="text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{message.body}</p>
    </li>
  )
}

export function SaleThread({
  messages,
  canPost,
  disputed,
  otherParty,
  lastResult,
}: {
  messages: ThreadMessageView[]
  canPost: boolean
  /** The sale is disputed: an admin can read the thread. */
  disputed: boolean
  otherParty: string
  lastResult?: SubmissionResult<string[]> | null
}) {
  useRefreshWhileVisible()
  const announcement = useArrivals(messages)
  const navigation = useNavigation()
  const sending = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST'
  // The form starts afresh after each message of mine (a refresh bringing the other side's keeps the draft).
  const mine = messages.filter((m) => m.mine).length
  const [form, fields] = useForm({
    id: `send-message-${mine}`,
    lastResult: lastResult ?? undefined,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SendMessageSchema }),
  })

  return (
    <div className="grid gap-4">
      <Alert variant={disputed ? 'warning' : 'default'} role="note">
        <Eye aria-hidden="true" />
        <AlertDescription>
          <p>{disputed ? ADMIN_READING_NOTICE : ADMIN_CAN_READ_NOTICE}</p>
        </AlertDescription>
      </Alert>

      <section aria-labelledby="thread-heading" className="grid gap-3">
        <h2 id="thread-heading" className="text-lg font-semibold">
          Conversation
        </h2>
        {messages.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            <MessagesSquare aria-hidden="true" className="size-4 shrink-0" />
            No messages yet.{canPost ? ` Write the first one to ${otherParty}.` : ''}
          </p>
        ) : (
          <ol className="grid gap-3" aria-label="Messages, oldest first">
            {messages.map((message) => (
              <MessageItem key={message.id} message={message} />
            ))}
          </ol>
        )}
        <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="thread-live">
          {announcement}
        </div>
      </section>

      {canPost ? (
        <Form method="post" {...getFormProps(form)} key={form.id} className="grid gap-3" aria-label={`Write to ${otherParty}`}>
          <FormErrors meta={form} />
          <Field
            meta={fields.body}
            label="Your message"
            description={`Plain text, up to ${MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters. Links are shown as text.`}
            control="textarea"
          >
            {(props) => <Textarea {...props} rows={4} />}
          </Field>
          <div>
            <Button type="submit" disabled={sending}>
              {sending ? 'Sending…' : 'Send message'}
            </Button>
          </div>
        </Form>
      ) : null}
    </div>
  )
}
