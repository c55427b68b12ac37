import { runWrk, writeWrkScript, WRK_PATH, wrkVersion, type LoadOptions, type LoadResult } from './wrk.ts'

export type { LoadResult }

export interface PrepareOptions {
  order: 'rotate' | 'random'
  accept: string
  /** A signed-in visitor's Cookie header (issue 28.3), sent with every request. */
  cookie?: string
}

export interface LoadTool {
  /** Written into the results: which generator produced the figures. */
  name: string
  prepare(scriptFile: string, paths: string[], options: PrepareOptions): void
  run(baseUrl: string, scriptFile: string, paths: string[], options: LoadOptions): Promise<{ result: LoadResult; output: string }>
}

/**
 * wrk (Debian's, C, one thread) when installed. Otherwise autocannon, which
 * takes about half the CPU from the server on 2 cores and so roughly halves
 * the figures — the results say so. Neither: a clear error.
 */
export async function loadTool(): Promise<LoadTool> {
  const wrk = wrkVersion()
  if (wrk) {
    return {
      name: wrk,
      prepare: (scriptFile, paths, options) => writeWrkScript(scriptFile, paths, options),
      run: (baseUrl, scriptFile, _paths, options) => runWrk(baseUrl, scriptFile, options),
    }
  }
  let autocannon: (options: Record<string, unknown>) => Promise<Record<string, any>>
  try {
    const specifier = 'autocannon'
    autocannon = ((await import(specifier)) as { default: typeof autocannon }).default
  } catch {
    throw new Error(
      `wrk is not installed at ${WRK_PATH} (apt-get install wrk) and the autocannon fallback is not installed either (npm install -D autocannon).`,
    )
  }
  const orders = new Map<string, PrepareOptions>()
  return {
    name: "autocannon (FALLBACK: wrk not found; autocannon shares the 2 cores with the server, figures are about half of wrk's)",
    prepare: (scriptFile, _paths, options) => orders.set(scriptFile, options),
    run: async (baseUrl, scriptFile, paths, options) => {
      const { order, accept, cookie } = orders.get(scriptFile)!
      // Each connection walks the list in turn; for random order, walk a shuffled copy.
      const list = order === 'random' ? [...paths].sort(() => Math.random() - 0.5) : paths
      const raw = await autocannon({
        url: baseUrl,
        connections: options.connections,
        duration: options.durationS,
        timeout: options.timeoutS,
        requests: list.map((p) => ({
          method: 'GET',
          path: p,
          headers: { accept, 'accept-encoding': 'gzip, deflate, br', ...(cookie ? { cookie } : {}) },
        })),
      })
      const durationS = Number(raw.duration)
      return {
        output: JSON.stringify(raw),
        result: {
          requests: raw.requests.total,
          durationS,
          requestsPerSecond: raw.requests.total / durationS,
          bytesPerSecond: raw.throughput.total / durationS,
          p50Ms: raw.latency.p50,
          p75Ms: raw.latency.p75,
          p90Ms: raw.latency.p90,
          p99Ms: raw.latency.p99,
          maxMs: raw.latency.max,
          meanMs: raw.latency.average,
          errors: { connect: raw.errors - raw.timeouts, read: 0, write: 0, status: raw.non2xx, timeout: raw.timeouts },
        },
      }
    },
  }
}
