import { Link } from 'react-router'
import { Callout, LegalPage, ProseTable, SUPPORT_EMAIL } from '~/components/prose'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/privacy'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

const SECTIONS = [
  { id: 'who-we-are', title: 'Who we are' },
  { id: 'what-we-collect', title: 'What we collect' },
  { id: 'how-we-use-it', title: 'How we use it' },
  { id: 'sharing', title: 'Who we share it with' },
  { id: 'payments', title: 'Card payments' },
  { id: 'retention', title: 'How long we keep it' },
  { id: 'security', title: 'Security' },
  { id: 'your-rights', title: 'Your rights' },
  { id: 'children', title: 'Age limit' },
  { id: 'changes', title: 'Changes and contact' },
]

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      lead="This policy explains what personal data Forkmarket collects when you browse, buy or sell, why we need it, who we share it with and the choices you have."
      toc={SECTIONS}
    >
      <Callout title="In brief">
        <ul>
          <li>We only collect what we need to run the marketplace, take payments and pay sellers.</li>
          <li>You sign in with Google or GitHub through Supabase; we never see your password.</li>
          <li>Card payments are handled by Stripe; your card data never touches our servers.</li>
          <li>We do not sell your data and we use no advertising trackers.</li>
        </ul>
      </Callout>

      <h2 id="who-we-are">1. Who we are</h2>
      <p>
        Forkmarket ("we", "us") operates the Forkmarket marketplace and is the controller of the personal data described here. You can reach
        us about privacy at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>

      <h2 id="what-we-collect">2. What we collect</h2>
      <h3>When you sign in</h3>
      <p>
        You sign in with Google or GitHub. Sign-in is handled by Supabase, our authentication provider, which passes us your{' '}
        <strong>email address</strong>, your <strong>name</strong> and your <strong>profile picture URL</strong> from that account, and a
        unique user ID. We use these to create your Forkmarket account, with a username and display name you can change.
      </p>
      <h3>When you use the marketplace</h3>
      <ul>
        <li>
          <strong>Profile:</strong> username, display name, avatar and bio. These are public on your listings.
        </li>
        <li>
          <strong>Listings</strong> you create: descriptions, tech stack, prices, screenshots, demo links and support terms. These are
          public unless you hide them.
        </li>
        <li>
          <strong>Orders:</strong> what you bought or sold, when, the amount and fee, the order status, the fork link used for delivery,
          confirmations and any dispute messages.
        </li>
        <li>
          <strong>Bank details (sellers only):</strong> country, account holder, bank name and account identifiers (sort code and account
          number, routing number, or IBAN and BIC/SWIFT). We use them only to pay you.
        </li>
      </ul>
      <h3>Automatically</h3>
      <p>
        Our servers keep short-lived technical logs (IP address, browser type, pages requested, errors) to keep the site secure and working.
        We use a few essential cookies, described in our <Link to="/cookies">Cookie Policy</Link>. We do not use advertising or cross-site
        tracking.
      </p>

      <h2 id="how-we-use-it">3. How we use it</h2>
      <ProseTable label="How we use your data">
        <table>
          <thead>
            <tr>
              <th scope="col">Purpose</th>
              <th scope="col">Legal basis</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Creating your account and signing you in</td>
              <td>Performing our contract with you</td>
            </tr>
            <tr>
              <td>Processing purchases, holding funds in escrow, delivering fork links and handling disputes</td>
              <td>Performing our contract with you</td>
            </tr>
            <tr>
              <td>Verifying and approving bank details and paying sellers</td>
              <td>Performing our contract; legal obligations</td>
            </tr>
            <tr>
              <td>Keeping financial and tax records</td>
              <td>Legal obligation</td>
            </tr>
            <tr>
              <td>Preventing fraud and abuse and keeping the service secure</td>
              <td>Our legitimate interests</td>
            </tr>
            <tr>
              <td>Sending service messages about your orders and account</td>
              <td>Performing our contract with you</td>
            </tr>
          </tbody>
        </table>
      </ProseTable>

      <h2 id="sharing">4. Who we share it with</h2>
      <p>We do not sell your personal data. We share it only as needed to run Forkmarket:</p>
      <ul>
        <li>
          <strong>Other users:</strong> buyers see a seller's public profile; sellers see the orders placed for their listings so they can
          deliver them.
        </li>
        <li>
          <strong>Supabase</strong> for sign-in and session management.
        </li>
        <li>
          <strong>Stripe</strong> for card payments and fraud prevention.
        </li>
        <li>
          <strong>Our hosting and infrastructure providers</strong>, which store data on our behalf under contract.
        </li>
        <li>
          <strong>Forkmarket admins</strong>, who review bank details, record payouts and resolve disputes.
        </li>
        <li>
          <strong>Authorities</strong>, where the law requires it or to protect our users and the service.
        </li>
      </ul>
      <p>
        Some of these providers process data outside the UK and EEA. Where they do, we rely on adequacy decisions or standard contractual
        clauses to protect it.
      </p>

      <h2 id="payments">5. Card payments</h2>
      <p>
        Card payments are processed by Stripe. Your card number, expiry date and security code are entered into Stripe's payment form and go
        directly to Stripe: <strong>card data never touches our servers</strong> and we never store it. We receive a payment reference, the
        amount and whether the payment succeeded. Stripe's use of your data is covered by Stripe's own privacy policy.
      </p>

      <h2 id="retention">6. How long we keep it</h2>
      <ul>
        <li>Account and profile data: while your account is open, then deleted within 30 days of closure.</li>
        <li>
          Orders, payouts and related records: for as long as tax and accounting law requires (currently six years after the end of the
          financial year), even if you close your account.
        </li>
        <li>Bank details: while you sell on Forkmarket; replaced when you update them.</li>
        <li>Technical logs: up to 30 days, unless needed to investigate a security incident.</li>
      </ul>

      <h2 id="security">7. Security</h2>
      <p>
        Data is encrypted in transit, access to bank details is limited to the admins who approve them and record payouts, and we never hold
        passwords or card numbers. No system is perfectly secure; if a breach affects your data, we will tell you and the regulator where
        the law requires.
      </p>

      <h2 id="your-rights">8. Your rights</h2>
      <p>Under data protection law you can ask us to:</p>
      <ul>
        <li>give you a copy of your personal data;</li>
        <li>correct data that is wrong or incomplete;</li>
        <li>delete your data, subject to the records we must keep;</li>
        <li>restrict or object to certain uses of it;</li>
        <li>send your data to you or another service in a portable format.</li>
      </ul>
      <p>
        Email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> from the address on your account and we will reply within one month.
        You can also complain to your data protection authority; in the UK that is the Information Commissioner's Office (ICO).
      </p>

      <h2 id="children">9. Age limit</h2>
      <p>
        Forkmarket is for people aged <strong>18 or over</strong>. We do not knowingly collect data from anyone younger; if we learn that we
        have, we delete it.
      </p>

      <h2 id="changes">10. Changes and contact</h2>
      <p>
        We will update this policy when our practices change and show the new date at the top. For significant changes we will let signed-in
        users know. Questions? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </LegalPage>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Privacy Policy · Forkmarket' },
    {
      name: 'description',
      content:
        'What personal data Forkmarket collects, why, who it is shared with (Supabase, Stripe) and your rights. No advertising trackers.',
    },
  ]
}
