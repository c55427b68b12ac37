import { VERSION_MAX, VERSION_NOTE_MAX } from '~/lib/releases'
import { z } from '~/lib/zod'

/**
 * The version-note form's rules (issue 30): Conform on /seller/edit/:id/versions, the same schema in
 * its action. Apart from releases.ts, which the marketplace's cards import (issue 28: Zod stays off
 * the pages that do not need it).
 */
export const VERSION_REQUIRED_MESSAGE = 'Enter the version, e.g. 1.2.0'
export const VERSION_FORMAT_MESSAGE = 'Use letters, digits, dots, dashes, underscores or plus signs, e.g. 1.2.0 or v2-beta'
export const VERSION_TOO_LONG_MESSAGE = `Versions must be at most ${VERSION_MAX} characters`
export const NOTES_REQUIRED_MESSAGE = 'Say what changed in this version'
export const NOTES_TOO_LONG_MESSAGE = `Notes must be at most ${VERSION_NOTE_MAX.toLocaleString('en-US')} characters`

export const VersionNoteSchema = z.object({
  version: z
    .string({ error: VERSION_REQUIRED_MESSAGE })
    .trim()
    .min(1, VERSION_REQUIRED_MESSAGE)
    // One message at a time: the format is checked once the version is there.
    .pipe(
      z
        .string()
        .max(VERSION_MAX, VERSION_TOO_LONG_MESSAGE)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, VERSION_FORMAT_MESSAGE),
    ),
  notes: z
    .string({ error: NOTES_REQUIRED_MESSAGE })
    .transform((v) => v.replace(/\r\n/g, '\n').trim())
    .pipe(z.string().min(1, NOTES_REQUIRED_MESSAGE).max(VERSION_NOTE_MAX, NOTES_TOO_LONG_MESSAGE)),
})
export type VersionNoteInput = z.output<typeof VersionNoteSchema>
