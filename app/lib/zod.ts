import { z } from 'zod'

// Zod 4 compiles object parsers with `new Function` unless told not to; under
// our CSP (no 'unsafe-eval') that attempt is blocked and reported as a
// violation on every page with a form. Jitless parsing needs no eval.
// Every module imports `z` from here (lint enforces it), so the setting is in
// place before any schema parses — and pages without a schema load no Zod.
z.config({ jitless: true })

export { z }
