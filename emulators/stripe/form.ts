/**
 * Decoding of Stripe's v1 request encoding: `application/x-www-form-urlencoded`
 * with bracketed keys (`metadata[order]=7`, `expand[0]=x`, `expand[]=x`), the
 * shape the Node SDK and stripe.js produce.
 */

export type Param = string | Params | Param[]
export interface Params {
  [key: string]: Param
}

export function parseForm(body: string): Params {
  const root: Params = {}
  for (const [rawKey, value] of new URLSearchParams(body)) {
    assign(root, keyPath(rawKey), value)
  }
  return arraysFromIndexedObjects(root) as Params
}

/** `a[b][0]` → ['a', 'b', '0']; `a[]` → ['a', ''] */
function keyPath(key: string): string[] {
  const open = key.indexOf('[')
  if (open <= 0) return [key]
  const path = [key.slice(0, open)]
  for (const match of key.slice(open).matchAll(/\[([^\]]*)\]/g)) path.push(match[1] ?? '')
  return path
}

function assign(target: Params, path: string[], value: string): void {
  let node = target
  path.forEach((segment, i) => {
    const key = segment === '' ? String(Object.keys(node).length) : segment
    if (i === path.length - 1) {
      node[key] = value
      return
    }
    const child = node[key]
    if (typeof child !== 'object' || Array.isArray(child)) node[key] = {}
    node = node[key] as Params
  })
}

/** Objects whose keys are exactly 0..n-1 become arrays. */
function arraysFromIndexedObjects(value: Param): Param {
  if (typeof value === 'string' || Array.isArray(value)) return value
  const keys = Object.keys(value)
  const converted: Params = {}
  for (const key of keys) converted[key] = arraysFromIndexedObjects(value[key] as Param)
  const isList = keys.length > 0 && keys.every((key, i) => key === String(i))
  return isList ? keys.map((key) => converted[key] as Param) : converted
}
