import { Link } from 'react-router'
import { LogoMark } from './logo-mark'

const groups = [
  {
    heading: 'Marketplace',
    links: [
      { to: '/marketplace', label: 'Browse Marketplace' },
      { to: '/seller/create', label: 'Start Selling' },
      { to: '/my-purchases', label: 'My Purchases' },
    ],
  },
  {
    heading: 'Support',
    links: [
      { to: '/faq', label: 'FAQ' },
      { to: '/help', label: 'Help Center' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { to: '/terms', label: 'Terms of Service' },
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/cookies', label: 'Cookie Policy' },
      { to: '/disclaimer', label: 'Disclaimer' },
    ],
  },
] as const

export function SiteFooter() {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[minmax(0,1.4fr)_minmax(0,3fr)] lg:px-8">
        <div className="max-w-xs">
          <div className="flex items-center gap-2 text-base font-semibold tracking-tight">
            <LogoMark className="size-6" />
            <span>Forkmarket</span>
          </div>
          <p className="mt-3 text-sm leading-relaxed text-muted-foreground">
            Buy and sell production-ready apps and templates, straight from their code hosts.
          </p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-3">
          {groups.map((group) => (
            <div key={group.heading}>
              <h2 className="text-sm font-semibold">{group.heading}</h2>
              <ul className="mt-3 grid gap-2.5 text-sm">
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      className="rounded-sm text-muted-foreground transition-colors hover:text-foreground hover:underline hover:underline-offset-4"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="border-t">
        <p className="mx-auto w-full max-w-6xl px-4 py-5 text-sm text-muted-foreground sm:px-6 lg:px-8">© 2026 Forkmarket</p>
      </div>
    </footer>
  )
}
