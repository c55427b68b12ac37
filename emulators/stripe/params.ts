/** Typed reads of decoded form params, failing the way the Stripe API does. */

import { invalidRequest, parameterInvalid, parameterUnknown } from './errors.ts'
import type { Param, Params } from './form.ts'
import type { Metadata } from './objects.ts'

export function rejectUnknown(params: Params, allowed: readonly string[]): void {
  const unknown = Object.keys(params).find((key) => !allowed.includes(key))
  if (unknown !== undefined) throw parameterUnknown(unknown)
}

export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') throw parameterInvalid(name, `Invalid string: ${describe(value)}`)
  return value
}

/** '' means "unset", as in the Stripe API. */
export function nullableString(params: Params, name: string): string | null | undefined {
  const value = optionalString(params, name)
  return value === '' ? null : value
}

export function optionalInteger(params: Params, name: string): number | undefined {
  const value = optionalString(params, name)
  if (value === undefined) return undefined
  if (!/^-?\d+$/.test(value)) {
    throw invalidRequest(`Invalid integer: ${value}`, { code: 'parameter_invalid_integer', param: name })
  }
  return Number(value)
}

export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = optionalString(params, name)
  if (value === undefined) return undefined
  if (value !== 'true' && value !== 'false') throw parameterInvalid(name, `Invalid boolean: ${value}`)
  return value === 'true'
}

export function optionalEnum<T extends string>(params: Params, name: string, values: readonly T[]): T | undefined {
  const value = optionalString(params, name)
  if (value === undefined) return undefined
  if (!(values as readonly string[]).includes(value)) {
    throw parameterInvalid(name, `Invalid ${name}: must be one of ${values.join(', ')}`)
  }
  return value as T
}

export function optionalObject(params: Params, name: string): Params | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw parameterInvalid(name, `Invalid object: ${name} must be a hash`)
  }
  return value
}

export function optionalStringList(params: Params, name: string): string[] | undefined {
  const value = params[name]
  if (value === undefined) return undefined
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : Object.values(value)
  if (!list.every((item): item is string => typeof item === 'string')) {
    throw parameterInvalid(name, `Invalid array: ${name} must be a list of strings`)
  }
  return list
}

const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 }

/**
 * Applies a `metadata` param to existing metadata: keys merge, an empty value
 * unsets its key, and `metadata=` clears everything.
 */
export function applyMetadata(current: Metadata, params: Params): Metadata {
  const value = params.metadata
  if (value === undefined) return current
  if (value === '') return {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw parameterInvalid('metadata', 'Invalid object: metadata must be a hash of strings')
  }
  const next = { ...current }
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') {
      throw parameterInvalid(`metadata[${key}]`, `Invalid value for metadata[${key}]: must be a string`)
    }
    if (key.length > METADATA_LIMITS.keyLength) {
      throw parameterInvalid('metadata', `Metadata keys can have up to ${METADATA_LIMITS.keyLength} characters.`)
    }
    if (item.length > METADATA_LIMITS.valueLength) {
      throw parameterInvalid(`metadata[${key}]`, `Metadata values can have up to ${METADATA_LIMITS.valueLength} characters.`)
    }
    if (item === '') delete next[key]
    else next[key] = item
  }
  if (Object.keys(next).length > METADATA_LIMITS.keys) {
    throw parameterInvalid('metadata', `Metadata can have up to ${METADATA_LIMITS.keys} keys.`)
  }
  return next
}

function describe(value: Param): string {
  return typeof value === 'string' ? value : Array.isArray(value) ? 'array' : 'hash'
}
