import { escapeHtml, htmlPage } from '../support/html.ts'
import type { Provider } from './store.ts'

export const PROVIDER_NAMES: Record<Provider, string> = { github: 'GitHub', google: 'Google' }

export interface ConsentPageInput {
  provider: Provider
  /** Where the form posts to. */
  action: string
  /** Carried through the form unchanged (redirect_to, code_challenge, …). */
  hidden: Record<string, string>
  /** Where "Cancel" leads: the app's redirect with an OAuth `access_denied` error. */
  cancelUrl: string
  email?: string
  fullName?: string
  error?: string
}

const CONSENT_STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f4f5; color: #18181b; margin: 0; }
  main { max-width: 24rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 0.75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
  h1 { font-size: 1.375rem; margin: 0 0 0.25rem; }
  .note { color: #52525b; margin: 0 0 1.5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
  input[type="email"], input[type="text"] { width: 100%; box-sizing: border-box; padding: 0.5rem; font: inherit; border: 1px solid #71717a; border-radius: 0.375rem; }
  button { margin-top: 1.5rem; width: 100%; padding: 0.625rem; font: inherit; font-weight: 600; color: #fff; background: #18181b; border: 0; border-radius: 0.375rem; cursor: pointer; }
  :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  .error { color: #b91c1c; font-weight: 600; }
  .cancel { display: block; margin-top: 1rem; text-align: center; color: #3f3f46; }
`

export function renderConsentPage(input: ConsentPageInput): string {
  const providerName = PROVIDER_NAMES[input.provider]
  const title = `Sign in with ${providerName} — Forkmarket local emulator`
  const hiddenInputs = Object.entries(input.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n        ')
  const errorBlock = input.error ? `<p id="form-error" class="error" role="alert">${escapeHtml(input.error)}</p>` : ''
  const describedBy = input.error ? ' aria-describedby="form-error" aria-invalid="true"' : ''
  return htmlPage({
    title,
    style: CONSENT_STYLE,
    main: `
      <h1>Sign in with ${escapeHtml(providerName)}</h1>
      <p class="note">Forkmarket local emulator — no real ${escapeHtml(providerName)} account is used.</p>
      ${errorBlock}
      <form method="post" action="${escapeHtml(input.action)}">
        ${hiddenInputs}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(input.email ?? '')}"${describedBy}>
        <label for="full_name">Full name</label>
        <input id="full_name" name="full_name" type="text" autocomplete="name" value="${escapeHtml(input.fullName ?? '')}">
        <button type="submit">Continue</button>
      </form>
      <a class="cancel" href="${escapeHtml(input.cancelUrl)}">Cancel</a>`,
  })
}

/** A deterministic initials badge standing in for the provider's profile picture. */
export function renderAvatarSvg(label: string, seed: string): string {
  const initials = initialsOf(label)
  const hue = [...seed].reduce((acc, char) => (acc * 31 + char.charCodeAt(0)) % 360, 7)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" aria-label="${escapeHtml(label)}">
  <rect width="128" height="128" fill="hsl(${hue} 55% 45%)"/>
  <text x="64" y="64" dy="0.35em" text-anchor="middle" font-family="system-ui, sans-serif" font-size="52" fill="#fff">${escapeHtml(initials)}</text>
</svg>
`
}

function initialsOf(label: string): string {
  const words = label.split(/[\s@._-]+/).filter(Boolean)
  const letters = words.length > 1 ? [words[0][0], words[1][0]] : [...(words[0] ?? '?')].slice(0, 2)
  return letters.join('').toUpperCase()
}
