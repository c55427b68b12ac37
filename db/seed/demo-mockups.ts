import { createHash } from 'node:crypto'
import { IMAGE_SIZES } from '../../app/lib/images.ts'
import { slugify } from '../../app/lib/slug.ts'
import type { DemoListing } from './demo-data.ts'

/**
 * Screenshots for the demo listings, drawn as SVG: a UI mockup per screen (a
 * landing page, a dashboard, a store, docs, a chat, a map, a calendar, a
 * terminal, phones, a board, a gallery) in the listing's own palette, with its
 * title, description and stack in the text. Pure functions of the listing:
 * the same listing always gives the same SVG (no clock, no Math.random).
 * db/seed/demo-images.ts renders them and stores them like uploads.
 */

export type MockupKind =
  'landing' | 'dashboard' | 'store' | 'docs' | 'chat' | 'map' | 'calendar' | 'terminal' | 'mobile' | 'kanban' | 'gallery'

const W = IMAGE_SIZES.full.width
const H = IMAGE_SIZES.full.height
const SANS = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif'
const MONO = 'DejaVu Sans Mono, Liberation Mono, Menlo, Consolas, monospace'

interface Palette {
  accent: string
  accent2: string
  soft: string
  page: string
  surface: string
  line: string
  text: string
  muted: string
  backdrop: [string, string]
  dark: boolean
}

// Ten brand palettes (light and dark) so neighbouring cards never look alike.
const PALETTES: Palette[] = [
  {
    accent: '#4f46e5',
    accent2: '#06b6d4',
    soft: '#e0e7ff',
    page: '#f8fafc',
    surface: '#ffffff',
    line: '#e2e8f0',
    text: '#0f172a',
    muted: '#64748b',
    backdrop: ['#c7d2fe', '#a5f3fc'],
    dark: false,
  },
  {
    accent: '#059669',
    accent2: '#84cc16',
    soft: '#d1fae5',
    page: '#f7fdf9',
    surface: '#ffffff',
    line: '#dcefe4',
    text: '#052e1c',
    muted: '#5b7a6a',
    backdrop: ['#a7f3d0', '#fef08a'],
    dark: false,
  },
  {
    accent: '#e11d48',
    accent2: '#f97316',
    soft: '#ffe4e6',
    page: '#fffafa',
    surface: '#ffffff',
    line: '#f5dfe3',
    text: '#2a0a12',
    muted: '#8a6068',
    backdrop: ['#fecdd3', '#fed7aa'],
    dark: false,
  },
  {
    accent: '#8b5cf6',
    accent2: '#ec4899',
    soft: '#2e2650',
    page: '#0f0d1a',
    surface: '#1a1730',
    line: '#2d2950',
    text: '#f5f3ff',
    muted: '#a39fc4',
    backdrop: ['#4c1d95', '#831843'],
    dark: true,
  },
  {
    accent: '#d97706',
    accent2: '#dc2626',
    soft: '#fef3c7',
    page: '#fffcf5',
    surface: '#ffffff',
    line: '#f1e6cc',
    text: '#291a03',
    muted: '#8a7350',
    backdrop: ['#fde68a', '#fecaca'],
    dark: false,
  },
  {
    accent: '#0284c7',
    accent2: '#22d3ee',
    soft: '#152a3d',
    page: '#0b1620',
    surface: '#112231',
    line: '#1f3a50',
    text: '#e6f4ff',
    muted: '#8fb0c8',
    backdrop: ['#0c4a6e', '#155e75'],
    dark: true,
  },
  {
    accent: '#0d9488',
    accent2: '#6366f1',
    soft: '#ccfbf1',
    page: '#f6fbfb',
    surface: '#ffffff',
    line: '#d9ecea',
    text: '#042f2e',
    muted: '#5a7876',
    backdrop: ['#99f6e4', '#c7d2fe'],
    dark: false,
  },
  {
    accent: '#ea580c',
    accent2: '#facc15',
    soft: '#2d2118',
    page: '#16110d',
    surface: '#211a14',
    line: '#3a2e24',
    text: '#fff7ed',
    muted: '#c2a58c',
    backdrop: ['#7c2d12', '#713f12'],
    dark: true,
  },
  {
    accent: '#c026d3',
    accent2: '#6366f1',
    soft: '#fae8ff',
    page: '#fdfaff',
    surface: '#ffffff',
    line: '#efe1f3',
    text: '#2a0630',
    muted: '#85658c',
    backdrop: ['#f5d0fe', '#c7d2fe'],
    dark: false,
  },
  {
    accent: '#16a34a',
    accent2: '#0ea5e9',
    soft: '#16271d',
    page: '#0b130e',
    surface: '#111d15',
    line: '#213528',
    text: '#ecfdf3',
    muted: '#8fb39b',
    backdrop: ['#14532d', '#0c4a6e'],
    dark: true,
  },
]

// Which screen a tag suggests; the first rule that names a tag wins.
const KIND_RULES: [MockupKind, string[]][] = [
  ['mobile', ['mobile', 'android', 'ios']],
  ['map', ['maps', 'real-estate', 'delivery']],
  ['store', ['ecommerce', 'shop', 'storefront', 'restaurant', 'ordering', 'tickets', 'marketplace', 'donations', 'fundraising']],
  ['gallery', ['photography', 'gallery', 'portfolio', 'design', 'wedding', 'recipes', 'food']],
  ['calendar', ['booking', 'calendar', 'scheduling', 'appointments', 'events']],
  ['chat', ['chat', 'realtime', 'writing', 'ai', 'polls']],
  ['docs', ['docs', 'documentation', 'blog', 'markdown', 'newsletter', 'publishing', 'resume', 'components', 'ui-kit']],
  ['terminal', ['api', 'backend', 'cli', 'bot', 'developer-tools', 'fintech', 'ledger', 'url-shortener', 'chrome-extension']],
  ['kanban', ['crm', 'sales', 'job-board', 'hiring', 'inventory', 'education']],
  [
    'dashboard',
    [
      'dashboard',
      'admin',
      'analytics',
      'mlops',
      'machine-learning',
      'data',
      'monitoring',
      'status-page',
      'devops',
      'kubernetes',
      'feature-flags',
      'invoicing',
      'charts',
    ],
  ],
]

const COMPLEMENTS: Record<MockupKind, MockupKind[]> = {
  landing: ['dashboard', 'docs'],
  dashboard: ['landing', 'kanban'],
  store: ['landing', 'dashboard'],
  docs: ['landing', 'terminal'],
  chat: ['landing', 'dashboard'],
  map: ['landing', 'store'],
  calendar: ['landing', 'dashboard'],
  terminal: ['docs', 'dashboard'],
  mobile: ['landing', 'dashboard'],
  kanban: ['dashboard', 'landing'],
  gallery: ['landing', 'store'],
}

export const SCREENS_PER_LISTING = 3

/** The screens of a listing, its most telling one first (that one is the thumbnail). */
export function mockupKinds(listing: Pick<DemoListing, 'tags'>): MockupKind[] {
  const kinds: MockupKind[] = []
  for (const tag of listing.tags) {
    const rule = KIND_RULES.find(([, tags]) => tags.includes(tag))
    if (rule && !kinds.includes(rule[0])) kinds.push(rule[0])
  }
  if (kinds.length === 0) kinds.push('landing')
  for (const kind of COMPLEMENTS[kinds[0]!]) if (!kinds.includes(kind)) kinds.push(kind)
  return kinds.slice(0, SCREENS_PER_LISTING)
}

// --- Drawing helpers --------------------------------------------------------------

/** A small seeded generator (mulberry32): the "random" data of a chart is the same every time. */
function seeded(key: string) {
  let state = createHash('sha256').update(key).digest().readUInt32LE(0)
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
type Random = ReturnType<typeof seeded>
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!
const between = (random: Random, min: number, max: number) => min + random() * (max - min)

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const n = (value: number) => Math.round(value * 10) / 10

function rect(x: number, y: number, w: number, h: number, fill: string, r = 0, extra = '') {
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${r}" fill="${fill}"${extra ? ` ${extra}` : ''}/>`
}
function circle(cx: number, cy: number, r: number, fill: string, extra = '') {
  return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${r}" fill="${fill}"${extra ? ` ${extra}` : ''}/>`
}
function text(
  x: number,
  y: number,
  value: string,
  size: number,
  fill: string,
  options: { weight?: number; anchor?: 'start' | 'middle' | 'end'; mono?: boolean } = {},
) {
  const weight = options.weight && options.weight !== 400 ? ` font-weight="${options.weight}"` : ''
  const anchor = options.anchor && options.anchor !== 'start' ? ` text-anchor="${options.anchor}"` : ''
  // Monospace lines keep their indentation.
  const family = options.mono ? ` font-family="${MONO}" xml:space="preserve"` : ''
  return `<text x="${n(x)}" y="${n(y)}" font-size="${size}" fill="${fill}"${weight}${anchor}${family}>${esc(value)}</text>`
}
/** Grey "text" lines, the way a mockup suggests copy without writing it. */
function lines(x: number, y: number, widths: number[], fill: string, height = 10, gap = 20) {
  return widths.map((w, i) => rect(x, y + i * gap, w, height, fill, height / 2)).join('')
}
function wrap(value: string, maxChars: number, maxLines: number): string[] {
  const out: string[] = []
  let line = ''
  for (const word of value.split(/\s+/)) {
    if (line && (line + ' ' + word).length > maxChars) {
      out.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) out.push(line)
  if (out.length > maxLines) {
    out.length = maxLines
    out[maxLines - 1] = `${out[maxLines - 1]!.replace(/[\s,.;:]+$/, '')}…`
  }
  return out
}
function brandOf(title: string) {
  return title.split(/\s+/).slice(0, 2).join(' ')
}
function button(x: number, y: number, w: number, h: number, label: string, fill: string, color: string, size = 18) {
  return rect(x, y, w, h, fill, h / 2) + text(x + w / 2, y + h / 2 + size * 0.36, label, size, color, { weight: 700, anchor: 'middle' })
}
function logo(x: number, y: number, size: number, p: Palette) {
  return rect(x, y, size, size, p.accent, size * 0.28) + circle(x + size * 0.62, y + size * 0.38, size * 0.18, p.accent2)
}
/** Lighter or darker version of a #rrggbb colour (amount -1…1). */
function shade(hex: string, amount: number) {
  const value = Number.parseInt(hex.slice(1), 16)
  const channel = (shift: number) => {
    const c = (value >> shift) & 255
    const next = amount >= 0 ? c + (255 - c) * amount : c * (1 + amount)
    return Math.round(next).toString(16).padStart(2, '0')
  }
  return `#${channel(16)}${channel(8)}${channel(0)}`
}
const tone = (p: Palette, amount: number) => shade(p.surface, p.dark ? amount : -amount)

// --- Frames -----------------------------------------------------------------------

interface Content {
  listing: DemoListing
  slug: string
  p: Palette
  random: Random
  /** Width and height of the drawing area. */
  w: number
  h: number
}

const FRAME = { x: 56, y: 48, w: W - 112, h: H - 96, bar: 52 }

function browser(c: Omit<Content, 'w' | 'h'>, body: (content: Content) => string, url: string) {
  const { p } = c
  const { x, y, w, h, bar } = FRAME
  const inner = { ...c, w, h: h - bar }
  const barFill = p.dark ? shade(p.page, 0.06) : '#eef1f5'
  return [
    `<clipPath id="window"><rect x="${x}" y="${y}" width="${w}" height="${h}" rx="20"/></clipPath>`,
    rect(x + 10, y + 22, w - 20, h - 4, '#000000', 20, 'opacity="0.16"'),
    `<g clip-path="url(#window)">`,
    rect(x, y, w, h, p.page),
    rect(x, y, w, bar, barFill),
    circle(x + 28, y + 26, 7, '#ff5f57') + circle(x + 52, y + 26, 7, '#febc2e') + circle(x + 76, y + 26, 7, '#28c840'),
    rect(x + w / 2 - 260, y + 11, 520, 30, p.dark ? shade(p.page, 0.14) : '#ffffff', 15),
    text(x + w / 2, y + 32, url, 15, p.dark ? '#c9cdd6' : '#5b6472', { anchor: 'middle' }),
    `<g transform="translate(${x} ${y + bar})">${body(inner)}</g>`,
    `</g>`,
  ].join('')
}

// --- Screens ----------------------------------------------------------------------

function landing({ listing, p, w, random }: Content) {
  const brand = brandOf(listing.title)
  const stack = [...listing.frameworks, ...listing.languages][0] ?? 'Open source'
  const headline = wrap(listing.title, 20, 2)
  const sub = wrap(listing.short, 46, 2)
  const features = [...listing.dependencies, ...listing.frameworks, ...listing.tags].slice(0, 3)
  while (features.length < 3) features.push(pick(random, ['Fast setup', 'Tested', 'Accessible']))
  const parts = [
    logo(48, 22, 34, p),
    text(94, 47, brand, 22, p.text, { weight: 700 }),
    ...['Features', 'Pricing', 'Docs', 'Blog'].map((label, i) => text(700 + i * 110, 46, label, 17, p.muted)),
    button(w - 220, 18, 170, 44, 'Get started', p.accent, '#ffffff', 17),
    rect(48, 132, 250, 36, p.soft, 18),
    circle(70, 150, 6, p.accent),
    text(86, 156, `New · built with ${stack}`, 15, p.dark ? p.text : p.accent, { weight: 700 }),
    ...headline.map((line, i) => text(48, 252 + i * 72, line, 62, p.text, { weight: 700 })),
    ...sub.map((line, i) => text(48, 252 + headline.length * 72 + 10 + i * 36, line, 24, p.muted)),
  ]
  const buttonsY = 252 + headline.length * 72 + 10 + sub.length * 36 + 20
  parts.push(button(48, buttonsY, 200, 58, 'Start now', p.accent, '#ffffff', 19))
  parts.push(rect(264, buttonsY, 180, 58, 'none', 29, `stroke="${p.line}" stroke-width="2"`))
  parts.push(text(354, buttonsY + 36, 'Live demo', 19, p.text, { weight: 700, anchor: 'middle' }))
  // The product preview on the right.
  const px = 820
  const py = 120
  parts.push(rect(px + 14, py + 18, 600, 420, p.accent, 22, 'opacity="0.18"'))
  parts.push(rect(px, py, 600, 420, p.surface, 22, `stroke="${p.line}" stroke-width="2"`))
  parts.push(rect(px, py, 600, 54, tone(p, 0.04), 22))
  parts.push(rect(px, py + 30, 600, 24, tone(p, 0.04)))
  parts.push(circle(px + 28, py + 27, 8, p.accent) + lines(px + 48, py + 22, [120], p.line))
  const figures = [
    `$${between(random, 4, 60).toFixed(1)}k`,
    Math.round(between(random, 900, 9000)).toLocaleString('en-US'),
    `${between(random, 90, 99.9).toFixed(1)}%`,
  ]
  figures.forEach((figure, i) => {
    const cx = px + 24 + i * 190
    parts.push(rect(cx, py + 76, 172, 92, tone(p, 0.03), 14))
    parts.push(lines(cx + 16, py + 94, [70], p.line, 9))
    parts.push(text(cx + 16, py + 148, figure, 28, p.text, { weight: 700 }))
  })
  const bars = 14
  for (let i = 0; i < bars; i++) {
    const bh = between(random, 50, 190)
    parts.push(rect(px + 30 + i * 40, py + 390 - bh, 24, bh, i % 3 === 2 ? p.accent2 : p.accent, 6, i % 3 === 1 ? 'opacity="0.55"' : ''))
  }
  // Three features.
  features.forEach((feature, i) => {
    const fx = 48 + i * 470
    parts.push(rect(fx, 600, 440, 200, p.surface, 18, `stroke="${p.line}" stroke-width="2"`))
    parts.push(rect(fx + 28, 630, 52, 52, p.soft, 14) + circle(fx + 54, 656, 12, i === 1 ? p.accent2 : p.accent))
    parts.push(text(fx + 28, 724, feature, 22, p.text, { weight: 700 }))
    parts.push(lines(fx + 28, 744, [360, 300], p.line, 10, 22))
  })
  return parts.join('')
}

const NAMES = [
  'Amara Diallo',
  'Ben Carter',
  'Chen Jia',
  'Dana Weiss',
  'Elif Kaya',
  'Farid Haddad',
  'Grace Kim',
  'Hugo Martin',
  'Isla Novak',
  'Jonas Berg',
  'Kofi Mensah',
  'Lena Park',
]

function dashboard({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  const side = 250
  const sideFill = p.dark ? shade(p.page, 0.04) : shade(p.accent, -0.55)
  parts.push(rect(0, 0, side, h, sideFill))
  parts.push(logo(28, 28, 32, p) + text(72, 52, brandOf(listing.title), 18, '#ffffff', { weight: 700 }))
  const nav = ['Overview', 'Analytics', 'Customers', 'Reports', 'Billing', 'Settings']
  nav.forEach((label, i) => {
    const y = 110 + i * 52
    if (i === 0) parts.push(rect(16, y - 28, side - 32, 42, p.accent, 10))
    parts.push(rect(36, y - 15, 16, 16, i === 0 ? '#ffffff' : '#ffffff', 4, i === 0 ? '' : 'opacity="0.45"'))
    parts.push(text(66, y - 1, label, 16, '#ffffff', { weight: i === 0 ? 700 : 400 }))
  })
  const x0 = side + 36
  const cw = w - x0 - 36
  parts.push(text(x0, 56, 'Overview', 30, p.text, { weight: 700 }))
  parts.push(rect(w - 420, 28, 300, 40, p.surface, 20, `stroke="${p.line}" stroke-width="2"`) + lines(w - 390, 43, [150], p.line))
  parts.push(circle(w - 70, 48, 20, p.accent2))
  const stats: [string, string, boolean][] = [
    ['Revenue', `$${between(random, 12, 96).toFixed(1)}k`, true],
    ['Active users', Math.round(between(random, 1200, 9800)).toLocaleString('en-US'), true],
    ['Conversion', `${between(random, 2, 9).toFixed(1)}%`, random() > 0.3],
    ['Churn', `${between(random, 0.5, 3).toFixed(1)}%`, false],
  ]
  const sw = (cw - 3 * 20) / 4
  stats.forEach(([label, value, up], i) => {
    const sx = x0 + i * (sw + 20)
    parts.push(rect(sx, 92, sw, 126, p.surface, 16, `stroke="${p.line}" stroke-width="2"`))
    parts.push(text(sx + 22, 128, label, 16, p.muted))
    parts.push(text(sx + 22, 176, value, 34, p.text, { weight: 700 }))
    const delta = `${up ? '+' : '−'}${between(random, 1, 18).toFixed(1)}%`
    parts.push(rect(sx + 22, 188, 74, 24, up ? '#16a34a' : '#dc2626', 12, 'opacity="0.15"'))
    parts.push(text(sx + 59, 205, delta, 14, up ? '#16a34a' : '#dc2626', { weight: 700, anchor: 'middle' }))
  })
  // Line chart with an area under it.
  const chart = { x: x0, y: 240, w: cw * 0.64, h: 330 }
  parts.push(rect(chart.x, chart.y, chart.w, chart.h, p.surface, 16, `stroke="${p.line}" stroke-width="2"`))
  parts.push(text(chart.x + 24, chart.y + 40, 'Revenue over time', 18, p.text, { weight: 700 }))
  const gx = chart.x + 24
  const gw = chart.w - 48
  const gy = chart.y + 70
  const gh = chart.h - 110
  for (let i = 0; i <= 4; i++) parts.push(rect(gx, gy + (gh * i) / 4, gw, 1.5, p.line))
  const points: [number, number][] = []
  let level = between(random, 0.3, 0.5)
  for (let i = 0; i < 13; i++) {
    level = Math.min(0.95, Math.max(0.08, level + between(random, -0.12, 0.16)))
    points.push([gx + (gw * i) / 12, gy + gh * (1 - level)])
  }
  const path = points.map(([px, py], i) => `${i ? 'L' : 'M'}${n(px)} ${n(py)}`).join(' ')
  parts.push(
    `<linearGradient id="area" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.accent}" stop-opacity="0.35"/><stop offset="1" stop-color="${p.accent}" stop-opacity="0"/></linearGradient>`,
  )
  parts.push(`<path d="${path} L${n(gx + gw)} ${gy + gh} L${gx} ${gy + gh} Z" fill="url(#area)"/>`)
  parts.push(`<path d="${path}" fill="none" stroke="${p.accent}" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>`)
  ;['Jan', 'Mar', 'May', 'Jul', 'Sep', 'Nov'].forEach((month, i) =>
    parts.push(text(gx + (gw * i) / 5, gy + gh + 26, month, 13, p.muted, { anchor: 'middle' })),
  )
  // Donut with a legend.
  const donut = { x: chart.x + chart.w + 20, y: 240, w: cw - chart.w - 20, h: 330 }
  parts.push(rect(donut.x, donut.y, donut.w, donut.h, p.surface, 16, `stroke="${p.line}" stroke-width="2"`))
  parts.push(text(donut.x + 24, donut.y + 40, 'Traffic sources', 18, p.text, { weight: 700 }))
  const cx = donut.x + donut.w / 2
  const cy = donut.y + 170
  const radius = 74
  const circumference = 2 * Math.PI * radius
  const shares = [between(random, 0.35, 0.5), between(random, 0.2, 0.3)]
  shares.push(1 - shares[0]! - shares[1]!)
  const colours = [p.accent, p.accent2, p.dark ? '#64748b' : '#cbd5e1']
  let offset = 0
  shares.forEach((share, i) => {
    parts.push(
      `<circle cx="${n(cx)}" cy="${cy}" r="${radius}" fill="none" stroke="${colours[i]}" stroke-width="30" stroke-dasharray="${n(share * circumference)} ${n(circumference)}" stroke-dashoffset="${n(-offset * circumference)}" transform="rotate(-90 ${n(cx)} ${cy})"/>`,
    )
    offset += share
  })
  parts.push(text(cx, cy + 10, `${Math.round(shares[0]! * 100)}%`, 28, p.text, { weight: 700, anchor: 'middle' }))
  ;['Search', 'Social', 'Direct'].forEach((label, i) => {
    const ly = donut.y + 290
    const lx = donut.x + 24 + i * ((donut.w - 48) / 3)
    parts.push(circle(lx + 6, ly - 5, 6, colours[i]!) + text(lx + 18, ly, label, 14, p.muted))
  })
  // Recent activity table.
  const table = { x: x0, y: 592, w: cw, h: h - 592 - 28 }
  parts.push(rect(table.x, table.y, table.w, table.h, p.surface, 16, `stroke="${p.line}" stroke-width="2"`))
  parts.push(text(table.x + 24, table.y + 38, 'Recent activity', 18, p.text, { weight: 700 }))
  for (let i = 0; i < 3; i++) {
    const ry = table.y + 80 + i * 50
    parts.push(rect(table.x + 24, ry - 30, table.w - 48, 1.5, p.line))
    parts.push(circle(table.x + 44, ry - 4, 14, i === 1 ? p.accent2 : p.accent, 'opacity="0.85"'))
    parts.push(text(table.x + 70, ry + 2, pick(random, NAMES), 16, p.text))
    parts.push(lines(table.x + 360, ry - 8, [between(random, 140, 260)], p.line))
    parts.push(text(table.x + table.w * 0.72, ry + 2, `$${Math.round(between(random, 19, 499))}.00`, 16, p.text, { weight: 700 }))
    const paid = random() > 0.3
    parts.push(rect(table.x + table.w - 150, ry - 18, 100, 28, paid ? '#16a34a' : '#d97706', 14, 'opacity="0.16"'))
    parts.push(
      text(table.x + table.w - 100, ry + 1, paid ? 'Paid' : 'Pending', 14, paid ? '#16a34a' : '#b45309', { weight: 700, anchor: 'middle' }),
    )
  }
  return parts.join('')
}

const PRODUCTS: Record<string, string[]> = {
  restaurant: ['Margherita', 'Ramen Bowl', 'Caesar Salad', 'Tacos al Pastor', 'Pad Thai', 'Tiramisu', 'Falafel Wrap', 'Lemonade'],
  ordering: ['Margherita', 'Ramen Bowl', 'Caesar Salad', 'Tacos al Pastor', 'Pad Thai', 'Tiramisu', 'Falafel Wrap', 'Lemonade'],
  tickets: ['Summer Jazz Night', 'Tech Summit', 'Comedy Live', 'Indie Film Fest', 'Marathon 10K', 'Opera Gala', 'Design Week', 'Food Fair'],
  donations: [
    'Clean Water',
    'School Books',
    'Tree Planting',
    'Animal Rescue',
    'Meals at Home',
    'Youth Sports',
    'Warm Coats',
    'Library Fund',
  ],
  photography: ['Alpine Dawn', 'City Lights', 'Desert Bloom', 'Northern Sea', 'Quiet Forest', 'Golden Hour', 'Harbour Fog', 'Salt Flats'],
  default: ['Linen Shirt', 'Canvas Tote', 'Desk Lamp', 'Ceramic Mug', 'Trail Sneakers', 'Headphones', 'Plant Pot', 'Notebook Set'],
}

function productArt(x: number, y: number, w: number, h: number, random: Random, p: Palette, id: string) {
  const hue = Math.round(between(random, 0, 360))
  const from = `hsl(${hue}, 70%, ${p.dark ? 38 : 82}%)`
  const to = `hsl(${(hue + 40) % 360}, 70%, ${p.dark ? 26 : 66}%)`
  const shape =
    random() > 0.5
      ? circle(x + w / 2, y + h / 2 + 6, Math.min(w, h) * 0.28, `hsl(${(hue + 180) % 360}, 60%, ${p.dark ? 60 : 45}%)`, 'opacity="0.85"')
      : rect(x + w * 0.3, y + h * 0.25, w * 0.4, h * 0.55, `hsl(${(hue + 180) % 360}, 60%, ${p.dark ? 60 : 45}%)`, 14, 'opacity="0.85"')
  return `<linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>${rect(x, y, w, h, `url(#${id})`, 14)}${shape}`
}

function store({ listing, p, w, random }: Content) {
  const parts: string[] = []
  const key = listing.tags.find((t) => PRODUCTS[t]) ?? 'default'
  const products = PRODUCTS[key]!
  parts.push(logo(48, 22, 34, p) + text(94, 47, brandOf(listing.title), 22, p.text, { weight: 700 }))
  parts.push(rect(520, 20, 440, 42, p.surface, 21, `stroke="${p.line}" stroke-width="2"`) + text(552, 47, 'Search products', 16, p.muted))
  parts.push(
    circle(w - 120, 41, 20, p.soft) +
      circle(w - 64, 41, 20, p.soft) +
      circle(w - 50, 26, 10, p.accent) +
      text(w - 50, 31, '3', 13, '#ffffff', { weight: 700, anchor: 'middle' }),
  )
  parts.push(
    `<linearGradient id="banner" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${p.accent}"/><stop offset="1" stop-color="${p.accent2}"/></linearGradient>`,
  )
  parts.push(rect(48, 90, w - 96, 190, 'url(#banner)', 22))
  const headline = wrap(listing.title, 30, 1)[0]!
  parts.push(text(96, 168, headline, 44, '#ffffff', { weight: 700 }))
  parts.push(text(96, 210, wrap(listing.short, 64, 1)[0]!, 21, '#ffffff'))
  parts.push(button(96, 226, 170, 44, 'Shop now', '#ffffff', p.accent, 17))
  parts.push(circle(w - 260, 185, 120, '#ffffff', 'opacity="0.16"') + circle(w - 150, 130, 60, '#ffffff', 'opacity="0.2"'))
  const cols = 4
  const gap = 24
  const cw = (w - 96 - gap * (cols - 1)) / cols
  for (let row = 0; row < 2; row++) {
    for (let col = 0; col < cols; col++) {
      const i = row * cols + col
      const x = 48 + col * (cw + gap)
      const y = 304 + row * 262
      parts.push(rect(x, y, cw, 244, p.surface, 16, `stroke="${p.line}" stroke-width="2"`))
      parts.push(productArt(x + 12, y + 12, cw - 24, 150, random, p, `product${i}`))
      parts.push(text(x + 18, y + 194, products[i % products.length]!, 19, p.text, { weight: 700 }))
      parts.push(text(x + 18, y + 226, `$${Math.round(between(random, 9, 180))}.00`, 18, p.accent, { weight: 700 }))
      parts.push(button(x + cw - 110, y + 200, 92, 34, 'Add', p.soft, p.dark ? p.text : p.accent, 15))
    }
  }
  return parts.join('')
}

function docs({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  parts.push(rect(0, 0, w, 64, p.surface) + rect(0, 64, w, 2, p.line))
  parts.push(logo(32, 16, 32, p) + text(76, 40, `${brandOf(listing.title)} Docs`, 20, p.text, { weight: 700 }))
  parts.push(rect(w - 460, 13, 300, 38, p.page, 19, `stroke="${p.line}" stroke-width="2"`) + text(w - 436, 38, 'Search docs…', 15, p.muted))
  parts.push(text(w - 120, 39, 'v2.4', 15, p.muted))
  // Navigation tree.
  const sections: [string, string[]][] = [
    ['Getting started', ['Introduction', 'Installation', 'Quick start']],
    ['Guides', ['Configuration', 'Deployment', 'Theming']],
    ['Reference', ['API', 'CLI', 'FAQ']],
  ]
  let y = 112
  sections.forEach(([title, items], s) => {
    parts.push(text(32, y, title.toUpperCase(), 13, p.muted, { weight: 700 }))
    y += 34
    items.forEach((item, i) => {
      const active = s === 0 && i === 2
      if (active) parts.push(rect(20, y - 24, 240, 36, p.soft, 8))
      parts.push(text(40, y, item, 16, active ? (p.dark ? p.text : p.accent) : p.text, { weight: active ? 700 : 400 }))
      y += 40
    })
    y += 18
  })
  parts.push(rect(280, 66, 2, h - 66, p.line))
  // The article.
  const ax = 340
  parts.push(text(ax, 116, 'Getting started  /  Quick start', 15, p.muted))
  parts.push(text(ax, 172, 'Quick start', 44, p.text, { weight: 700 }))
  const intro = wrap(listing.short, 70, 2)
  intro.forEach((line, i) => parts.push(text(ax, 218 + i * 32, line, 21, p.muted)))
  parts.push(lines(ax, 296, [720, 680, 540], p.line, 11, 26))
  parts.push(rect(ax, 384, 800, 76, p.soft, 12) + rect(ax, 384, 6, 76, p.accent, 3))
  parts.push(
    text(ax + 28, 418, 'Tip', 17, p.dark ? p.text : p.accent, { weight: 700 }) +
      lines(ax + 28, 432, [560], p.dark ? p.line : shade(p.accent, 0.6)),
  )
  // Code block.
  const slug = slugify(listing.title)
  const code = { x: ax, y: 486, w: 800, h: 250 }
  parts.push(rect(code.x, code.y, code.w, code.h, '#0f172a', 14))
  const tokens = ['#f472b6', '#93c5fd', '#fde68a', '#86efac', '#c4b5fd', '#e2e8f0']
  const codeLines = [
    [`$ npx degit forkmarket/${slug} my-app`, '#e2e8f0'],
    ['$ cd my-app && npm install', '#e2e8f0'],
    ['$ npm run dev', '#e2e8f0'],
    ['  ready on http://localhost:3000', '#86efac'],
  ] as const
  codeLines.forEach(([line, colour], i) => parts.push(text(code.x + 28, code.y + 48 + i * 34, line, 18, colour, { mono: true })))
  for (let i = 0; i < 2; i++) {
    let cx = code.x + 28
    for (let t = 0; t < 5; t++) {
      const tw = between(random, 40, 130)
      parts.push(rect(cx, code.y + 182 + i * 30, tw, 12, pick(random, tokens), 6, 'opacity="0.8"'))
      cx += tw + 14
    }
  }
  parts.push(lines(ax, 770, [760, 640], p.line, 11, 26))
  // On this page.
  parts.push(text(w - 300, 116, 'On this page', 15, p.text, { weight: 700 }))
  ;['Install', 'Run it locally', 'Deploy', 'Next steps'].forEach((item, i) =>
    parts.push(text(w - 300, 154 + i * 34, item, 15, i === 0 ? p.accent : p.muted)),
  )
  return parts.join('')
}

function chat({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  const rail = p.dark ? shade(p.page, 0.03) : shade(p.accent, -0.6)
  parts.push(rect(0, 0, 76, h, rail))
  for (let i = 0; i < 4; i++) parts.push(rect(16, 20 + i * 62, 44, 44, i === 0 ? p.accent : '#ffffff', 12, i === 0 ? '' : 'opacity="0.18"'))
  parts.push(rect(76, 0, 260, h, p.dark ? shade(p.page, 0.06) : shade(p.accent, -0.45)))
  parts.push(text(100, 48, brandOf(listing.title), 20, '#ffffff', { weight: 700 }))
  const channels = ['general', 'launch', 'design', 'support', 'random']
  channels.forEach((channel, i) => {
    const y = 112 + i * 42
    if (i === 1) parts.push(rect(88, y - 28, 236, 38, '#ffffff', 8, 'opacity="0.16"'))
    parts.push(text(108, y, `# ${channel}`, 17, '#ffffff', { weight: i === 1 ? 700 : 400 }))
  })
  parts.push(text(100, 370, 'DIRECT MESSAGES', 13, '#ffffff', { weight: 700 }))
  for (let i = 0; i < 4; i++) {
    parts.push(
      circle(114, 408 + i * 42, 10, i % 2 ? p.accent2 : '#22c55e') + text(134, 414 + i * 42, NAMES[(i * 5) % NAMES.length]!, 16, '#ffffff'),
    )
  }
  const x0 = 336
  parts.push(rect(x0, 0, w - x0, 70, p.surface) + rect(x0, 70, w - x0, 2, p.line))
  parts.push(
    text(x0 + 32, 44, '# launch', 22, p.text, { weight: 700 }) +
      text(x0 + 150, 44, `${Math.round(between(random, 8, 64))} members`, 15, p.muted),
  )
  const messages: [string, string[]][] = [
    [NAMES[0]!, [wrap(listing.short, 80, 1)[0]!]],
    [NAMES[3]!, ['Shipped the new onboarding flow. Feedback welcome!']],
    [NAMES[6]!, ['Looks great. Typing indicators feel instant now.']],
    [NAMES[9]!, [`Merged the ${listing.dependencies[0] ?? 'API'} integration, deploying after lunch.`]],
  ]
  messages.forEach(([name, body], i) => {
    const y = 130 + i * 130
    parts.push(rect(x0 + 32, y - 22, 48, 48, [p.accent, p.accent2, '#f59e0b', '#10b981'][i]!, 12))
    parts.push(
      text(x0 + 98, y - 2, name, 18, p.text, { weight: 700 }) +
        text(x0 + 98 + name.length * 11 + 18, y - 2, `${9 + i}:${i * 7 + 12} AM`, 14, p.muted),
    )
    parts.push(text(x0 + 98, y + 30, body[0]!, 18, p.text))
    if (i === 1) {
      parts.push(
        rect(x0 + 98, y + 48, 64, 30, p.soft, 15) +
          circle(x0 + 118, y + 63, 7, '#f59e0b') +
          text(x0 + 142, y + 69, '4', 15, p.text, { anchor: 'middle' }),
      )
      parts.push(
        rect(x0 + 170, y + 48, 64, 30, p.soft, 15) +
          circle(x0 + 190, y + 63, 7, p.accent2) +
          text(x0 + 214, y + 69, '2', 15, p.text, { anchor: 'middle' }),
      )
    }
  })
  parts.push(text(x0 + 98, 662, `${NAMES[11]} is typing…`, 15, p.muted))
  parts.push(rect(x0 + 32, h - 110, w - x0 - 64, 72, p.surface, 14, `stroke="${p.line}" stroke-width="2"`))
  parts.push(text(x0 + 58, h - 66, 'Message #launch', 18, p.muted))
  parts.push(rect(w - 96, h - 96, 44, 44, p.accent, 10))
  return parts.join('')
}

function map({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  const listW = 500
  parts.push(rect(0, 0, listW, h, p.surface) + rect(listW, 0, 2, h, p.line))
  parts.push(text(32, 54, brandOf(listing.title), 24, p.text, { weight: 700 }))
  parts.push(
    rect(32, 76, listW - 64, 44, p.page, 22, `stroke="${p.line}" stroke-width="2"`) +
      text(56, 104, 'Search by area or address', 16, p.muted),
  )
  ;['Price', 'Beds', 'Type', 'More'].forEach((label, i) =>
    parts.push(
      rect(32 + i * 104, 134, 94, 34, p.soft, 17) +
        text(79 + i * 104, 157, label, 15, p.dark ? p.text : p.accent, { anchor: 'middle', weight: 700 }),
    ),
  )
  for (let i = 0; i < 4; i++) {
    const y = 190 + i * 158
    parts.push(rect(24, y, listW - 48, 142, p.page, 14, `stroke="${p.line}" stroke-width="2"`))
    parts.push(productArt(36, y + 12, 150, 118, random, p, `place${i}`))
    parts.push(text(204, y + 46, `$${Math.round(between(random, 180, 960))},000`, 22, p.text, { weight: 700 }))
    parts.push(
      text(
        204,
        y + 78,
        `${Math.round(between(random, 1, 5))} bd · ${Math.round(between(random, 1, 3))} ba · ${Math.round(between(random, 55, 240))} m²`,
        15,
        p.muted,
      ),
    )
    parts.push(lines(204, y + 96, [200], p.line))
  }
  // The map.
  const mx = listW + 2
  const mw = w - mx
  parts.push(rect(mx, 0, mw, h, p.dark ? '#1b2a22' : '#e8efe3'))
  parts.push(
    `<path d="M${mx} ${h * 0.72} C ${mx + mw * 0.3} ${h * 0.6}, ${mx + mw * 0.45} ${h * 0.95}, ${mx + mw * 0.8} ${h * 0.8} L ${w} ${h * 0.85} L ${w} ${h} L ${mx} ${h} Z" fill="${p.dark ? '#12344a' : '#bfdbfe'}"/>`,
  )
  for (let i = 0; i < 6; i++) parts.push(rect(mx + 60 + i * 170, 40 + (i % 2) * 60, 120, 90, p.dark ? '#22342a' : '#dde7d6', 8))
  const roads = p.dark ? '#3b4b42' : '#ffffff'
  parts.push(
    `<path d="M${mx} 230 L${w} 300" stroke="${roads}" stroke-width="18"/><path d="M${mx + 260} 0 L${mx + 340} ${h}" stroke="${roads}" stroke-width="14"/><path d="M${mx + 640} 0 C ${mx + 600} 300, ${mx + 760} 420, ${mx + 700} ${h}" stroke="${roads}" stroke-width="22"/><path d="M${mx} 520 L${w} 470" stroke="${roads}" stroke-width="10"/>`,
  )
  for (let i = 0; i < 7; i++) {
    const px = mx + between(random, 80, mw - 120)
    const py = between(random, 120, h * 0.62)
    const label = `$${Math.round(between(random, 180, 960))}k`
    const active = i === 2
    parts.push(
      rect(px - 44, py - 44, 88, 34, active ? p.accent2 : p.accent, 17) +
        `<path d="M${n(px - 8)} ${n(py - 11)} L${n(px)} ${n(py)} L${n(px + 8)} ${n(py - 11)} Z" fill="${active ? p.accent2 : p.accent}"/>`,
    )
    parts.push(text(px, py - 21, label, 15, '#ffffff', { weight: 700, anchor: 'middle' }))
  }
  parts.push(
    rect(w - 72, 24, 48, 96, p.surface, 10, `stroke="${p.line}" stroke-width="2"`) +
      text(w - 48, 60, '+', 26, p.text, { anchor: 'middle' }) +
      text(w - 48, 106, '−', 26, p.text, { anchor: 'middle' }),
  )
  return parts.join('')
}

function calendar({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  parts.push(logo(32, 22, 34, p) + text(78, 48, brandOf(listing.title), 22, p.text, { weight: 700 }))
  parts.push(text(380, 50, 'May 2026', 28, p.text, { weight: 700 }))
  ;['Day', 'Week', 'Month'].forEach((label, i) =>
    parts.push(
      rect(w - 420 + i * 96, 20, 90, 38, i === 1 ? p.accent : p.surface, 19, i === 1 ? '' : `stroke="${p.line}" stroke-width="2"`) +
        text(w - 375 + i * 96, 45, label, 15, i === 1 ? '#ffffff' : p.text, { anchor: 'middle', weight: 700 }),
    ),
  )
  parts.push(button(w - 130, 20, 100, 38, '+ New', p.accent2, '#ffffff', 15))
  // Mini month on the left.
  parts.push(rect(24, 84, 300, 300, p.surface, 14, `stroke="${p.line}" stroke-width="2"`))
  ;['M', 'T', 'W', 'T', 'F', 'S', 'S'].forEach((d, i) =>
    parts.push(text(56 + i * 38, 120, d, 13, p.muted, { anchor: 'middle', weight: 700 })),
  )
  for (let d = 0; d < 35; d++) {
    const day = (d % 31) + 1
    const cx = 56 + (d % 7) * 38
    const cy = 156 + Math.floor(d / 7) * 42
    if (day === 14) parts.push(circle(cx, cy - 5, 16, p.accent))
    parts.push(text(cx, cy, String(day), 14, day === 14 ? '#ffffff' : p.text, { anchor: 'middle' }))
  }
  parts.push(text(24, 430, 'Staff', 16, p.text, { weight: 700 }))
  for (let i = 0; i < 4; i++)
    parts.push(
      circle(44, 468 + i * 44, 12, [p.accent, p.accent2, '#f59e0b', '#10b981'][i]!) + text(68, 474 + i * 44, NAMES[i * 2]!, 15, p.text),
    )
  // The week grid.
  const gx = 350
  const gw = w - gx - 24
  const gy = 84
  const colW = gw / 7
  const rowH = 64
  const days = ['Mon 11', 'Tue 12', 'Wed 13', 'Thu 14', 'Fri 15', 'Sat 16', 'Sun 17']
  parts.push(rect(gx, gy, gw, h - gy - 20, p.surface, 14, `stroke="${p.line}" stroke-width="2"`))
  days.forEach((day, i) =>
    parts.push(text(gx + colW * i + colW / 2, gy + 34, day, 15, i === 3 ? p.accent : p.muted, { anchor: 'middle', weight: 700 })),
  )
  for (let r = 0; r < 11; r++) parts.push(rect(gx, gy + 52 + r * rowH, gw, 1.5, p.line))
  for (let c = 1; c < 7; c++) parts.push(rect(gx + colW * c, gy + 52, 1.5, h - gy - 72, p.line))
  const events = ['Haircut · Ana', 'Consultation', 'Team standup', 'Colour & style', 'Check-up', 'Massage 60′', 'Demo call', 'Follow-up']
  const taken = new Set<string>()
  for (let i = 0; i < 12; i++) {
    const col = Math.floor(between(random, 0, 7))
    const row = Math.floor(between(random, 0, 9))
    const span = random() > 0.6 ? 2 : 1
    // One event per slot: no overlapping blocks.
    if (taken.has(`${col}:${row}`) || taken.has(`${col}:${row + span - 1}`)) continue
    for (let r = row; r < row + span; r++) taken.add(`${col}:${r}`)
    const colour = [p.accent, p.accent2, '#f59e0b', '#10b981'][i % 4]!
    const ex = gx + colW * col + 6
    const ey = gy + 56 + row * rowH
    parts.push(rect(ex, ey, colW - 12, rowH * span - 8, colour, 8, 'opacity="0.2"') + rect(ex, ey, 5, rowH * span - 8, colour, 2))
    parts.push(text(ex + 14, ey + 24, pick(random, events), 13, p.text, { weight: 700 }))
    parts.push(text(ex + 14, ey + 44, `${9 + row}:00`, 12, p.muted))
  }
  return parts.join('')
}

function terminal(c: Omit<Content, 'w' | 'h'>) {
  const { listing, slug, p, random } = c
  const x = 120
  const y = 90
  const w = W - 240
  const h = H - 180
  const bg = '#0d1117'
  const parts = [
    rect(x + 12, y + 24, w - 24, h, '#000000', 18, 'opacity="0.25"'),
    rect(x, y, w, h, bg, 18),
    rect(x, y, w, 48, '#161b22', 18) + rect(x, y + 30, w, 18, '#161b22'),
    circle(x + 26, y + 24, 7, '#ff5f57') + circle(x + 50, y + 24, 7, '#febc2e') + circle(x + 74, y + 24, 7, '#28c840'),
    rect(x + 110, y + 8, 220, 40, bg, 8) + text(x + 130, y + 34, `~/${slug.slice(0, 18)}`, 15, '#c9d1d9', { mono: true }),
    text(x + 350, y + 34, 'server.log', 15, '#6e7681', { mono: true }),
  ]
  const stack = [...listing.languages, ...listing.frameworks].join(' · ')
  const endpoint = listing.tags.includes('cli') || listing.tags.includes('developer-tools') ? null : `/v1/${listing.tags[0] ?? 'items'}`
  const out: [string, string][] = endpoint
    ? [
        [`$ curl -s localhost:8080${endpoint} | jq '.data[0]'`, '#c9d1d9'],
        ['{', '#c9d1d9'],
        [`  "id": "${createHash('sha256').update(slug).digest('hex').slice(0, 12)}",`, '#a5d6ff'],
        [`  "name": "${listing.title.slice(0, 40)}",`, '#a5d6ff'],
        [`  "status": "active",`, '#7ee787'],
        [`  "latency_ms": ${Math.round(between(random, 4, 40))}`, '#ffa657'],
        ['}', '#c9d1d9'],
        ['', '#c9d1d9'],
        [
          `$ ${listing.languages[0] === 'Go' ? 'go test ./...' : listing.languages[0] === 'Rust' ? 'cargo test' : listing.languages[0] === 'Python' ? 'pytest -q' : listing.languages[0] === 'Java' ? './gradlew test' : 'npm test'}`,
          '#c9d1d9',
        ],
        [`ok   ${Math.round(between(random, 40, 180))} tests passed in ${between(random, 0.8, 4.5).toFixed(2)}s`, '#7ee787'],
      ]
    : [
        [`$ ${slug.split('-')[0]} --help`, '#c9d1d9'],
        [`${listing.title} — ${listing.short.slice(0, 52)}`, '#c9d1d9'],
        ['', '#c9d1d9'],
        ['USAGE', '#ffa657'],
        [`  ${slug.split('-')[0]} <command> [flags]`, '#c9d1d9'],
        ['COMMANDS', '#ffa657'],
        ['  init       create a new project', '#a5d6ff'],
        ['  build      compile for release', '#a5d6ff'],
        ['  deploy     ship to production', '#a5d6ff'],
        ['  update     self-update to the latest version', '#a5d6ff'],
      ]
  out.forEach(([line, colour], i) => parts.push(text(x + 36, y + 100 + i * 36, line, 19, colour, { mono: true })))
  // A log tail under the command output.
  const methods = ['GET', 'POST', 'GET', 'PATCH', 'GET', 'DELETE', 'GET', 'POST']
  for (let i = 0; i < 8; i++) {
    const ly = y + 100 + out.length * 36 + 24 + i * 32
    const status = random() > 0.85 ? 404 : 200
    parts.push(
      text(
        x + 36,
        ly,
        `12:0${i}:${String(Math.round(between(random, 10, 59)))}  ${methods[i]!.padEnd(6)} ${endpoint ?? '/releases/latest'}`,
        16,
        '#6e7681',
        { mono: true },
      ),
    )
    parts.push(text(x + 640, ly, String(status), 16, status === 200 ? '#7ee787' : '#ffa657', { mono: true }))
    parts.push(text(x + 700, ly, `${Math.round(between(random, 2, 60))}ms`, 16, '#6e7681', { mono: true }))
  }
  parts.push(
    rect(x + w - 330, y + 80, 290, 110, '#161b22', 12) +
      text(x + w - 310, y + 116, 'built with', 15, '#6e7681') +
      text(x + w - 310, y + 150, stack.slice(0, 24), 19, p.accent2, { weight: 700 }),
  )
  parts.push(rect(x + 36, y + h - 58, 12, 24, '#c9d1d9'))
  return parts.join('')
}

function phone(x: number, y: number, screen: string, p: Palette) {
  const w = 330
  const h = 690
  return [
    rect(x + 10, y + 18, w, h, '#000000', 52, 'opacity="0.22"'),
    rect(x, y, w, h, '#111827', 52),
    `<clipPath id="screen${x}"><rect x="${x + 12}" y="${y + 12}" width="${w - 24}" height="${h - 24}" rx="42"/></clipPath>`,
    `<g clip-path="url(#screen${x})">${rect(x + 12, y + 12, w - 24, h - 24, p.page)}<g transform="translate(${x + 12} ${y + 12})">${screen}</g></g>`,
    rect(x + w / 2 - 56, y + 24, 112, 30, '#111827', 15),
  ].join('')
}

function mobile(c: Omit<Content, 'w' | 'h'>) {
  const { listing, p, random } = c
  const sw = 306
  const parts = [
    text(W / 2, 92, listing.title, 44, '#ffffff', { weight: 700, anchor: 'middle' }),
    text(W / 2, 136, wrap(listing.short, 70, 1)[0]!, 22, '#ffffff', { anchor: 'middle' }),
  ]
  // Screen 1: home with a progress ring.
  const ring = (() => {
    const r = 78
    const circumference = 2 * Math.PI * r
    const done = between(random, 0.55, 0.9)
    return [
      text(24, 92, 'Good morning', 15, p.muted),
      text(24, 124, NAMES[2]!.split(' ')[0]!, 26, p.text, { weight: 700 }),
      `<circle cx="${sw / 2}" cy="250" r="${r}" fill="none" stroke="${p.line}" stroke-width="20"/>`,
      `<circle cx="${sw / 2}" cy="250" r="${r}" fill="none" stroke="${p.accent}" stroke-width="20" stroke-linecap="round" stroke-dasharray="${n(done * circumference)} ${n(circumference)}" transform="rotate(-90 ${sw / 2} 250)"/>`,
      text(sw / 2, 260, `${Math.round(done * 100)}%`, 34, p.text, { weight: 700, anchor: 'middle' }),
      text(sw / 2, 290, 'daily goal', 14, p.muted, { anchor: 'middle' }),
      ...[0, 1, 2].map(
        (i) =>
          rect(20, 370 + i * 82, sw - 40, 68, p.surface, 16, `stroke="${p.line}" stroke-width="2"`) +
          rect(34, 384 + i * 82, 40, 40, i === 1 ? p.accent2 : p.accent, 12, 'opacity="0.9"') +
          lines(88, 390 + i * 82, [130, 80], p.line, 9, 20),
      ),
      rect(0, 606, sw, 60, p.surface) + [0, 1, 2, 3].map((i) => circle(44 + i * 72, 634, 10, i === 0 ? p.accent : p.line)).join(''),
    ].join('')
  })()
  // Screen 2: a list of cards.
  const list = [
    text(24, 104, listing.tags[0] ? listing.tags[0].replace(/-/g, ' ').replace(/^./, (ch) => ch.toUpperCase()) : 'Today', 26, p.text, {
      weight: 700,
    }),
    ...[0, 1, 2, 3].map(
      (i) =>
        productArt(20, 130 + i * 124, 104, 104, random, p, `m${i}`) +
        text(
          140,
          166 + i * 124,
          pick(random, ['Morning run', 'Order #2381', 'Deep breath', 'Courier nearby', 'Leg day', 'Evening walk']),
          17,
          p.text,
          { weight: 700 },
        ) +
        lines(140, 184 + i * 124, [120, 90], p.line, 9, 20),
    ),
  ].join('')
  // Screen 3: a detail with bars.
  const detail = [
    rect(0, 0, sw, 260, p.accent),
    text(24, 104, 'This week', 17, '#ffffff'),
    text(24, 150, `${Math.round(between(random, 3, 12))}.${Math.round(between(random, 0, 9))} h`, 44, '#ffffff', { weight: 700 }),
    ...[0, 1, 2, 3, 4, 5, 6].map((i) => {
      const bh = between(random, 30, 120)
      return rect(28 + i * 38, 390 - bh, 24, bh, i === 4 ? p.accent2 : p.accent, 8, i === 4 ? '' : 'opacity="0.6"')
    }),
    ...['M', 'T', 'W', 'T', 'F', 'S', 'S'].map((d, i) => text(40 + i * 38, 414, d, 13, p.muted, { anchor: 'middle' })),
    button(24, 560, sw - 48, 56, 'Start session', p.accent2, '#ffffff', 18),
  ].join('')
  parts.push(phone(235, 190, ring, p), phone(635, 170, list, p), phone(1035, 190, detail, p))
  return parts.join('')
}

function kanban({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  parts.push(logo(32, 22, 34, p) + text(78, 48, brandOf(listing.title), 22, p.text, { weight: 700 }))
  parts.push(text(380, 50, 'Pipeline', 26, p.text, { weight: 700 }))
  for (let i = 0; i < 4; i++)
    parts.push(circle(w - 220 + i * 30, 40, 16, [p.accent, p.accent2, '#f59e0b', '#10b981'][i]!, `stroke="${p.page}" stroke-width="3"`))
  parts.push(button(w - 110, 22, 86, 38, 'Share', p.accent, '#ffffff', 15))
  const columns: [string, number][] = [
    [
      listing.tags.includes('hiring') || listing.tags.includes('job-board')
        ? 'Applied'
        : listing.tags.includes('inventory')
          ? 'To order'
          : 'Lead',
      4,
    ],
    [
      listing.tags.includes('hiring') || listing.tags.includes('job-board')
        ? 'Interview'
        : listing.tags.includes('inventory')
          ? 'Ordered'
          : 'Qualified',
      3,
    ],
    [
      listing.tags.includes('hiring') || listing.tags.includes('job-board')
        ? 'Offer'
        : listing.tags.includes('inventory')
          ? 'In transit'
          : 'Proposal',
      3,
    ],
    [
      listing.tags.includes('hiring') || listing.tags.includes('job-board')
        ? 'Hired'
        : listing.tags.includes('inventory')
          ? 'Received'
          : 'Won',
      2,
    ],
  ]
  const gap = 22
  const colW = (w - 48 - gap * 3) / 4
  columns.forEach(([name, count], c) => {
    const x = 24 + c * (colW + gap)
    parts.push(rect(x, 84, colW, h - 108, tone(p, 0.035), 16))
    parts.push(
      circle(x + 26, 118, 7, [p.accent, p.accent2, '#f59e0b', '#10b981'][c]!) +
        text(x + 42, 124, name, 18, p.text, { weight: 700 }) +
        text(x + colW - 24, 124, String(count), 16, p.muted, { anchor: 'end' }),
    )
    for (let i = 0; i < count; i++) {
      const y = 146 + i * 164
      parts.push(rect(x + 14, y, colW - 28, 148, p.surface, 12, `stroke="${p.line}" stroke-width="2"`))
      const label = pick(random, ['High', 'New', 'Follow up', 'Priority', 'Q3'])
      parts.push(
        rect(x + 30, y + 18, 96, 26, p.soft, 13) +
          text(x + 78, y + 36, label, 13, p.dark ? p.text : p.accent, { anchor: 'middle', weight: 700 }),
      )
      parts.push(
        text(
          x + 30,
          y + 76,
          pick(random, ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark Ind.', 'Wayne Co.', 'Soylent']),
          18,
          p.text,
          { weight: 700 },
        ),
      )
      parts.push(lines(x + 30, y + 92, [between(random, 120, colW - 90)], p.line))
      parts.push(text(x + 30, y + 132, `$${Math.round(between(random, 2, 90))},${Math.round(between(random, 100, 999))}`, 16, p.muted))
      parts.push(circle(x + colW - 50, y + 124, 14, pick(random, [p.accent, p.accent2, '#f59e0b'])))
    }
  })
  return parts.join('')
}

function gallery({ listing, p, w, h, random }: Content) {
  const parts: string[] = []
  parts.push(text(48, 56, brandOf(listing.title), 26, p.text, { weight: 700 }))
  ;['Work', 'About', 'Journal', 'Contact'].forEach((label, i) =>
    parts.push(text(w - 420 + i * 100, 54, label, 17, i === 0 ? p.accent : p.muted, { weight: i === 0 ? 700 : 400 })),
  )
  parts.push(text(48, 150, wrap(listing.short, 48, 1)[0]!, 40, p.text, { weight: 700 }))
  // A masonry of four columns.
  const cols = 4
  const gap = 20
  const colW = (w - 96 - gap * (cols - 1)) / cols
  for (let c = 0; c < cols; c++) {
    let y = 190
    let i = 0
    while (y < h - 60) {
      const tile = Math.min(between(random, 170, 330), h - 20 - y)
      if (tile < 90) break
      parts.push(productArt(48 + c * (colW + gap), y, colW, tile, random, p, `tile${c}${i}`))
      y += tile + gap
      i++
    }
  }
  return parts.join('')
}

// --- The SVG of one screen ---------------------------------------------------------

/** The full-size SVG (1600×1000) of one screen of a listing. */
export function mockupSvg(listing: DemoListing, listingIndex: number, kind: MockupKind): string {
  const slug = slugify(listing.title)
  const p = PALETTES[listingIndex % PALETTES.length]!
  const random = seeded(`${slug}:${kind}`)
  const base = { listing, slug, p, random }
  const url = `${slug}.demo.forkmarket.dev${kind === 'landing' ? '' : `/${kind === 'dashboard' ? 'app' : kind}`}`
  const body: Record<MockupKind, () => string> = {
    landing: () => browser(base, landing, url),
    dashboard: () => browser(base, dashboard, url),
    store: () => browser(base, store, url),
    docs: () => browser(base, docs, url),
    chat: () => browser(base, chat, url),
    map: () => browser(base, map, url),
    calendar: () => browser(base, calendar, url),
    kanban: () => browser(base, kanban, url),
    gallery: () => browser(base, gallery, url),
    terminal: () => terminal(base),
    mobile: () => mobile(base),
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${SANS}">`,
    `<defs><linearGradient id="backdrop" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.backdrop[0]}"/><stop offset="1" stop-color="${p.backdrop[1]}"/></linearGradient></defs>`,
    rect(0, 0, W, H, 'url(#backdrop)'),
    circle(W * 0.12, H * 0.9, 260, '#ffffff', 'opacity="0.12"') + circle(W * 0.92, H * 0.08, 200, '#ffffff', 'opacity="0.12"'),
    body[kind](),
    '</svg>',
  ].join('')
}

/** Every screen of a listing, the thumbnail first. */
export function listingMockups(listing: DemoListing, listingIndex: number): string[] {
  return mockupKinds(listing).map((kind) => mockupSvg(listing, listingIndex, kind))
}
