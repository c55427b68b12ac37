import { Form } from 'react-router'
import { Button } from '~/components/ui/button'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { formatDateTime } from '~/lib/format'
import { RESEND_WEBHOOK_INTENT } from '~/lib/webhooks'
import { DeliveryStatus } from './delivery-status'

/** What the log shows of an answer (the database keeps up to 2,000 characters of it). */
export const ANSWER_SHOWN_CHARS = 300

export interface DeliveryRow {
  id: string
  webhookId: string
  eventType: string
  status: 'pending' | 'succeeded' | 'failed'
  attempts: number
  nextAttemptAt: Date | string
  lastStatus: number | null
  lastError: string | null
  createdAt: Date | string
  log: { attemptedAt: Date | string; status: number | null; error: string | null; responseExcerpt: string | null }[]
}

function answerOf(delivery: DeliveryRow) {
  const last = delivery.log[0]
  if (!last) return null
  const text = last.responseExcerpt || last.error || ''
  return text.length > ANSWER_SHOWN_CHARS ? `${text.slice(0, ANSWER_SHOWN_CHARS)}…` : text
}

/** The endpoint's recent deliveries, newest first, each with Resend once it is no longer being sent. */
export function DeliveryLog({ deliveries, canSend }: { deliveries: DeliveryRow[]; canSend: boolean }) {
  if (!deliveries.length) return <p className="text-sm text-muted-foreground">Nothing sent yet. Send a test event to try your endpoint.</p>
  return (
    <Table label="Delivery log">
      <TableHeader>
        <TableRow>
          <TableHead>Event</TableHead>
          <TableHead>Webhook id</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Attempts</TableHead>
          <TableHead>When</TableHead>
          <TableHead>Answer</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((delivery) => {
          const answer = answerOf(delivery)
          return (
            <TableRow key={delivery.id}>
              <TableCell className="font-medium">
                <code>{delivery.eventType}</code>
              </TableCell>
              <TableCell label="Webhook id">
                <code className="text-xs break-all">{delivery.webhookId}</code>
              </TableCell>
              <TableCell label="Status">
                <span className="grid gap-1">
                  <DeliveryStatus status={delivery.status} httpStatus={delivery.lastStatus} />
                  {delivery.status === 'pending' && delivery.attempts > 0 ? (
                    <span className="text-xs text-muted-foreground">Next attempt {formatDateTime(delivery.nextAttemptAt)}</span>
                  ) : null}
                </span>
              </TableCell>
              <TableCell label="Attempts">{delivery.attempts}</TableCell>
              <TableCell label="When">{formatDateTime(delivery.createdAt)}</TableCell>
              <TableCell label="Answer">
                {answer === null ? (
                  '—'
                ) : (
                  <code className="block max-w-xs text-xs break-all whitespace-pre-wrap">{answer || '(empty)'}</code>
                )}
              </TableCell>
              <TableCell className="text-end">
                {canSend && delivery.status !== 'pending' ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value={RESEND_WEBHOOK_INTENT} />
                    <input type="hidden" name="deliveryId" value={delivery.id} />
                    <Button type="submit" size="sm" variant="outline" aria-label={`Resend ${delivery.eventType} ${delivery.webhookId}`}>
                      Resend
                    </Button>
                  </Form>
                ) : null}
              </TableCell>
            </TableRow>
          )
        })}
      </TableBody>
    </Table>
  )
}
