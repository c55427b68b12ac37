import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { startProcess } from './processes.ts'

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium'
export const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking'

export interface LighthouseRun {
  score: number
  lcpMs: number
  tbtMs: number
  cls: number
  fcpMs: number
  warnings: string[]
}

export interface LighthouseSummary extends Omit<LighthouseRun, 'warnings'> {
  url: string
  runs: LighthouseRun[]
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * One Lighthouse run through the package's own CLI (mobile preset, the
 * default; performance only), in a process group of its own so Ctrl-C also
 * stops its Chromium.
 */
async function runOnce(root: string, url: string, outFile: string, logFile: string): Promise<LighthouseRun> {
  rmSync(outFile, { force: true })
  const cli = path.join(root, 'node_modules', 'lighthouse', 'cli', 'index.js')
  const proc = startProcess(
    'lighthouse',
    process.execPath,
    [cli, url, '--quiet', '--output=json', `--output-path=${outFile}`, '--only-categories=performance', `--chrome-flags=${CHROME_FLAGS}`],
    { cwd: root, env: { ...process.env, CHROME_PATH }, logFile },
  )
  const code = await proc.exited
  let lhr
  try {
    lhr = JSON.parse(readFileSync(outFile, 'utf8'))
  } catch {
    throw new Error(`lighthouse ${url} exited with ${code} and no report; see ${logFile}`)
  }
  if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
  const audit = (id: string) => Number(lhr.audits[id]?.numericValue ?? Number.NaN)
  return {
    score: Math.round(Number(lhr.categories.performance.score) * 100),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Math.round(audit('cumulative-layout-shift') * 1000) / 1000,
    fcpMs: Math.round(audit('first-contentful-paint')),
    warnings: lhr.runWarnings ?? [],
  }
}

/**
 * Median of `runs` Lighthouse runs, each figure taken separately. A run that
 * fails with a Lighthouse runtime error (NO_NAVSTART, NO_FCP: trace recording
 * on a saturated machine) is tried again, up to twice.
 */
export async function lighthouseMedian(
  root: string,
  url: string,
  runs: number,
  workDir: string,
  onRetry: (message: string) => void = () => {},
): Promise<LighthouseSummary> {
  const results: LighthouseRun[] = []
  const slug = new URL(url).pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'
  for (let i = 0; i < runs; i++) {
    for (let attempt = 1; ; attempt++) {
      const outFile = path.join(workDir, `lighthouse-${new URL(url).port}-${slug}-${i}.json`)
      try {
        results.push(await runOnce(root, url, outFile, path.join(workDir, 'logs', 'lighthouse.log')))
        break
      } catch (error) {
        if (attempt === 3) throw error
        onRetry(`${url} run ${i + 1}: ${error instanceof Error ? error.message : String(error)}; trying again`)
      }
    }
  }
  return {
    url,
    score: median(results.map((r) => r.score)),
    lcpMs: median(results.map((r) => r.lcpMs)),
    tbtMs: median(results.map((r) => r.tbtMs)),
    cls: median(results.map((r) => r.cls)),
    fcpMs: median(results.map((r) => r.fcpMs)),
    runs: results,
  }
}
