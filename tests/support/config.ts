import { loadConfig } from '../../app/server/infra/env.server.ts'

/**
 * Changes environment variables for a test and reloads the app's configuration
 * (env.server.ts parses the environment once; `undefined` removes a variable).
 */
export function setEnv(variables: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(variables)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  loadConfig()
}
