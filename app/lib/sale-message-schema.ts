import { isUuid } from '~/lib/ids'
import { z } from '~/lib/zod'

/**
 * A message on a sale's thread (issue 18), shared by the thread's form
 * (Conform), its action and POST /api/transactions/{id}/messages: one limit,
 * one set of messages. Plain text: links stay text (the thread never renders
 * an anchor or any HTML).
 */
export const MESSAGE_MAX_LENGTH = 5000

export const MESSAGE_REQUIRED = 'Write a message'
export const MESSAGE_TOO_LONG = `Messages must be at most ${MESSAGE_MAX_LENGTH.toLocaleString('en-US')} characters`

/** Line endings as one, surrounding blank space dropped; what is stored and counted. */
export function normaliseMessage(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim()
}

export const MessageBodySchema = z
  .string({ error: MESSAGE_REQUIRED })
  .transform(normaliseMessage)
  .pipe(z.string().min(1, MESSAGE_REQUIRED).max(MESSAGE_MAX_LENGTH, MESSAGE_TOO_LONG))

/** The thread's form on /sales/{id}/messages. */
export const SendMessageSchema = z.object({ body: MessageBodySchema })

/** The JSON API's body. */
export const MessageApiSchema = z.object({ body: MessageBodySchema })

export const SaleIdSchema = z.string().refine(isUuid, 'Sale not found')

/** What the parties are told about who else can read their thread. */
export const ADMIN_CAN_READ_NOTICE =
  'Only you and the other party can read these messages. If the sale is disputed, an admin can read them while deciding the dispute.'
export const ADMIN_READING_NOTICE = 'This sale is disputed: an admin can read this conversation while deciding the dispute.'

/** How often an open thread asks for new messages while the page is visible (JavaScript on). */
export const THREAD_REFRESH_MS = 15_000
