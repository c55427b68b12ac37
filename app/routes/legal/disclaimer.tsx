import { Link } from 'react-router'
import { LegalPage, SUPPORT_EMAIL } from '~/components/prose'
import { DISPUTE_WINDOW_DAYS, DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/disclaimer'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

export default function DisclaimerPage() {
  return (
    <LegalPage
      title="Disclaimer"
      lead="Forkmarket is a marketplace: the apps, templates and sites listed here are made and sold by independent sellers. Please read this page to understand what we do and do not guarantee."
    >
      <h2 id="marketplace">We run the marketplace, sellers make the code</h2>
      <p>
        Listings, descriptions, screenshots, demos and code are provided by sellers, who are responsible for them. We do not write, audit or
        security-test the code that is sold, and a listing appearing on Forkmarket is not an endorsement of it or of its seller.
      </p>
      <p>
        What we do provide is escrow protection: a buyer's funds are held by the platform until delivery is confirmed. After the seller
        delivers a fork link (or, for a listing delivered through GitHub, once the buyer has accepted the GitHub invitation to its
        repository), the buyer has a {DISPUTE_WINDOW_DAYS}-day ({DISPUTE_WINDOW_HOURS}-hour) dispute window to press Confirm Receipt or
        Report a problem; if they do neither, the sale is confirmed automatically after {DISPUTE_WINDOW_HOURS} hours. A reported problem is
        reviewed by an admin, who either releases the funds to the seller or refunds the buyer. See our{' '}
        <Link to="/terms#disputes">Terms of Service</Link> for details.
      </p>

      <h2 id="no-warranty">No warranty on listed code</h2>
      <p>
        Except for the dispute process above and any rights you have by law, code bought on Forkmarket is provided "as is". Sellers describe
        what their code does, but neither Forkmarket nor the seller promises that it is free of bugs or vulnerabilities, fit for your
        particular purpose, or compatible with future versions of the frameworks, packages and services it depends on. Before using
        purchased code in production you should review it, keep its dependencies up to date, and test it with your own data and
        infrastructure.
      </p>

      <h2 id="third-party">Third-party services and dependencies</h2>
      <p>
        Many listings rely on third-party services (for example databases, authentication, payments or hosting) and open-source packages.
        Those services have their own terms, prices and availability, which can change. You are responsible for creating your own accounts
        with them and for any costs they charge. Open-source components remain under their own licences.
      </p>

      <h2 id="demos">Demos, screenshots and links</h2>
      <p>
        Demo sites and screenshots are provided by sellers to show what a listing does. They may use sample data or features that need extra
        configuration. Links to external websites are provided for convenience; we do not control them and are not responsible for their
        content.
      </p>

      <h2 id="support">Support and extra services</h2>
      <p>
        Setup calls, email support and bespoke development are offered and delivered by sellers, on the terms shown in their listing.
        Forkmarket is not a party to bespoke work arranged between a buyer and a seller.
      </p>

      <h2 id="no-advice">Not professional advice</h2>
      <p>
        Content on Forkmarket, including our help articles and FAQ, is general information. It is not legal, financial, tax or security
        advice. Sellers should take their own advice on the tax treatment of their sales.
      </p>

      <h2 id="trademarks">Trademarks</h2>
      <p>
        Names and logos of programming languages, frameworks and services shown on listings are trademarks of their respective owners and
        are used only to describe the technology a listing uses. Brand icons come from Simple Icons. Their use does not imply any
        affiliation with or endorsement by those owners.
      </p>

      <h2 id="availability">Availability of the service</h2>
      <p>
        We work to keep Forkmarket available and accurate, but we do not guarantee that it will be uninterrupted or error-free. Your
        purchases stay accessible through your forks and the fork links delivered to you, which live on the code-hosting platform. Access
        given by a GitHub invitation is removed if the sale is refunded.
      </p>

      <h2 id="liability">Limitation of liability</h2>
      <p>
        To the extent the law allows, our total liability to you is limited to the greater of 100 GBP or the fees you paid to us in the 6
        months before the claim, as set out in section 14 of our <Link to="/terms#liability">Terms of Service</Link>. Nothing on this page
        limits liability that cannot be limited by law.
      </p>

      <h2 id="contact">Questions</h2>
      <p>
        If something on a listing looks wrong, misleading or infringes your rights, tell us at{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
      </p>
    </LegalPage>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Disclaimer · Forkmarket' },
    {
      name: 'description',
      content:
        'Forkmarket listings are made and sold by independent sellers. What escrow covers, and what we do not guarantee about listed code.',
    },
  ]
}
