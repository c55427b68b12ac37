import routes from '../../app/routes.ts'

interface ConfigEntry {
  path?: string
  file: string
  index?: boolean
  children?: ConfigEntry[]
}

function flatten(entries: ConfigEntry[], parent = ''): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? parent || '/' : [parent, entry.path].filter(Boolean).join('/')
    return [{ path, file: entry.file }, ...flatten(entry.children ?? [], path)]
  })
}

/** Every route of app/routes.ts with its full path (index routes as their parent's), for tests that must cover them all. */
export const ROUTES = flatten(routes as ConfigEntry[])
