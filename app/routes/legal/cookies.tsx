import { Link } from 'react-router'
import { Callout, LegalPage, ProseTable, SUPPORT_EMAIL } from '~/components/prose'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/cookies'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

const COOKIES = [
  {
    name: <code>sb-…</code>,
    purpose:
      'Authentication session cookies (named sb-…-auth-token) set when you sign in with Google or GitHub through Supabase. They keep you signed in and let the server know who is making a request.',
    type: 'Strictly necessary',
    duration: 'While you are signed in; refreshed automatically and removed when you sign out',
  },
  {
    name: <code>sidebar_state</code>,
    purpose: 'Remembers whether you left the sidebar expanded or collapsed.',
    type: 'Functional',
    duration: '7 days',
  },
  {
    name: <code>fm_theme</code>,
    purpose: 'Theme preference: remembers whether you chose the light or dark theme, so pages render in the right colours.',
    type: 'Functional',
    duration: '1 year',
  },
  {
    name: <code>fm_toast</code>,
    purpose: 'Toast message: carries a one-off confirmation or error message (for example "Listing Deleted") to the next page you see.',
    type: 'Strictly necessary',
    duration: 'Short-lived: deleted as soon as the message is shown',
  },
]

export default function CookiesPage() {
  return (
    <LegalPage
      title="Cookie Policy"
      lead="Forkmarket uses a handful of small cookies to keep you signed in and remember your display preferences. This page lists every one of them."
    >
      <Callout title="No advertising trackers">
        <p>We do not use advertising, retargeting or cross-site tracking cookies, and we do not share cookie data with advertisers.</p>
      </Callout>

      <h2 id="what-are-cookies">What cookies are</h2>
      <p>
        Cookies are small text files a website stores in your browser. They let the site remember information between pages and visits, such
        as whether you are signed in.
      </p>

      <h2 id="cookies-we-use">Cookies we use</h2>
      <ProseTable label="Cookies we use">
        <table>
          <thead>
            <tr>
              <th scope="col">Cookie</th>
              <th scope="col">Purpose</th>
              <th scope="col">Type</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {COOKIES.map((cookie) => (
              <tr key={cookie.type + cookie.purpose}>
                <td>{cookie.name}</td>
                <td>{cookie.purpose}</td>
                <td>{cookie.type}</td>
                <td>{cookie.duration}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ProseTable>

      <h2 id="third-party">Payments by Stripe</h2>
      <p>
        On the checkout page the card form is provided by Stripe. Stripe may set its own cookies there to prevent fraud and keep payments
        secure; they are covered by Stripe's cookie policy. Your card data goes directly to Stripe and never touches our servers.
      </p>

      <h2 id="managing">Managing cookies</h2>
      <p>
        You can delete or block cookies in your browser settings. If you block the <code>sb-…</code> session cookies you will not be able to
        sign in, buy or sell; blocking the preference cookies only means the sidebar and theme go back to their defaults on each visit.
      </p>

      <h2 id="contact">Changes and questions</h2>
      <p>
        If we add a cookie we will list it here and update the date at the top. For how we handle personal data in general, see our{' '}
        <Link to="/privacy">Privacy Policy</Link>. Questions? Email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </LegalPage>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Cookie Policy · Forkmarket' },
    {
      name: 'description',
      content:
        'The cookies Forkmarket uses: Supabase sign-in session cookies, sidebar and theme preferences and a short-lived message cookie. No advertising trackers.',
    },
  ]
}
