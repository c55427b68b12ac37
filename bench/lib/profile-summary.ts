import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples?: number[]
  timeDeltas?: number[]
}

export interface ProfileSummary {
  file: string
  totalMs: number
  byArea: Array<{ area: string; ms: number; percent: number }>
  topFunctions: Array<{ fn: string; where: string; ms: number; percent: number }>
}

/** Where a frame's code lives: an npm package, the app's build, Node internals, or V8 (GC, idle). */
function area(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)'
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1]!
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0]
  if (/\/build[^/]*\/server\//.test(url)) return 'app server bundle'
  return path.relative(process.cwd(), url.replace(/^file:\/\//, '')) || url
}

/** Self time per area and per function of each .cpuprofile in dir (Node's --cpu-prof output). */
export function summarizeProfiles(dir: string, top = 15): ProfileSummary[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((file) => {
      const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile
      const byId = new Map(profile.nodes.map((n) => [n.id, n]))
      const selfUs = new Map<number, number>()
      const samples = profile.samples ?? []
      const deltas = profile.timeDeltas ?? []
      for (let i = 0; i < samples.length; i++) selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + (deltas[i] ?? 0))
      const total = [...selfUs.values()].reduce((a, b) => a + b, 0) || 1
      const areas = new Map<string, number>()
      const fns = new Map<string, { where: string; us: number }>()
      for (const [id, us] of selfUs) {
        const { functionName, url, lineNumber } = byId.get(id)!.callFrame
        const a = area(url, functionName)
        areas.set(a, (areas.get(a) ?? 0) + us)
        const key = `${functionName || '(anonymous)'} ${url}:${lineNumber}`
        const entry = fns.get(key) ?? { where: `${a}:${lineNumber + 1}`, us: 0 }
        entry.us += us
        fns.set(key, entry)
      }
      const pct = (us: number) => Math.round((us / total) * 1000) / 10
      return {
        file,
        totalMs: Math.round(total / 1000),
        byArea: [...areas]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([a, us]) => ({ area: a, ms: Math.round(us / 1000), percent: pct(us) })),
        topFunctions: [...fns]
          .sort((a, b) => b[1].us - a[1].us)
          .slice(0, top)
          .map(([key, v]) => ({ fn: key.split(' ')[0]!, where: v.where, ms: Math.round(v.us / 1000), percent: pct(v.us) })),
      }
    })
}
