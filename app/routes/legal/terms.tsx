import { Link } from 'react-router'
import { Callout, LegalPage, SUPPORT_EMAIL } from '~/components/prose'
import { DISPUTE_WINDOW_DAYS, DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { formatCents, PLATFORM_FEE_PERCENT, SELLER_SHARE_PERCENT, splitFee } from '~/lib/money'
import { ACCESS_RULE, UPDATE_RECIPIENTS_IN_WORDS } from '~/lib/releases'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/terms'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

/** The fee example in the copy: a $100.00 sale, split by the same rule as every sale. */
const FEE_EXAMPLE = splitFee(10_000)

const SECTIONS = [
  { id: 'about', title: 'About these terms' },
  { id: 'eligibility', title: 'Eligibility and accounts' },
  { id: 'how-it-works', title: 'How a purchase works' },
  { id: 'escrow', title: 'Payments and escrow' },
  { id: 'delivery', title: 'Delivery and the dispute window' },
  { id: 'disputes', title: 'Disputes and refunds' },
  { id: 'licences', title: 'Licences and lifetime access' },
  { id: 'selling', title: 'Selling on Forkmarket' },
  { id: 'fees-payouts', title: 'Fees and payouts' },
  { id: 'acceptable-use', title: 'Acceptable use' },
  { id: 'intellectual-property', title: 'Intellectual property' },
  { id: 'suspension', title: 'Suspension and closing accounts' },
  { id: 'disclaimers', title: 'Disclaimers' },
  { id: 'liability', title: 'Limitation of liability' },
  { id: 'changes', title: 'Changes to these terms' },
  { id: 'law', title: 'Governing law' },
  { id: 'contact', title: 'Contact' },
]

export default function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      lead="These terms govern your use of Forkmarket, the marketplace where developers buy and sell apps, templates and full sites hosted on a code-hosting platform. Please read them before you buy or sell."
      toc={SECTIONS}
    >
      <Callout title="The short version">
        <ul>
          <li>You must be at least 18 to use Forkmarket.</li>
          <li>Buyers pay by card once and get lifetime access to what they bought, delivered as a fork link.</li>
          <li>We hold the buyer's money in escrow until delivery is confirmed.</li>
          <li>
            After delivery the buyer has a {DISPUTE_WINDOW_HOURS}-hour ({DISPUTE_WINDOW_DAYS}-day) dispute window. If they neither confirm
            nor report a problem, the sale confirms automatically.
          </li>
          <li>
            Sellers pay a {PLATFORM_FEE_PERCENT}% platform fee, receive {SELLER_SHARE_PERCENT}% of the price, and are paid by bank transfer
            within 5 working days.
          </li>
        </ul>
      </Callout>

      <h2 id="about">1. About these terms</h2>
      <p>
        Forkmarket ("Forkmarket", "we", "us") runs an online marketplace. Sellers list source code (apps, templates and full sites) and
        buyers purchase it. These Terms of Service ("Terms") form an agreement between you and us when you use the website, whether you
        browse, buy, sell or do all three. By creating an account or making a purchase you accept these Terms, our{' '}
        <Link to="/privacy">Privacy Policy</Link> and our <Link to="/cookies">Cookie Policy</Link>.
      </p>
      <p>
        A sale is a contract between the buyer and the seller. We are not the author of the listed code; we provide the marketplace, take
        card payments, hold funds in escrow and pay sellers out once a sale completes.
      </p>

      <h2 id="eligibility">2. Eligibility and accounts</h2>
      <ul>
        <li>
          You must be at least <strong>18 years old</strong> and able to enter into a binding contract. If you use Forkmarket for a
          business, you confirm you are authorised to bind that business.
        </li>
        <li>
          You sign in with your Google or GitHub account. Sign-in is handled for us by Supabase, our authentication provider; we never see
          your Google or GitHub password.
        </li>
        <li>
          You are responsible for activity on your account. Keep access to your Google or GitHub account secure and tell us at once if you
          think someone else has used your Forkmarket account.
        </li>
        <li>The information in your profile, listings and bank details must be accurate and kept up to date.</li>
      </ul>

      <h2 id="how-it-works">3. How a purchase works</h2>
      <ol>
        <li>The buyer chooses a listing and pays the listed price by card at checkout.</li>
        <li>We hold the payment in escrow. The seller is notified of the sale.</li>
        <li>
          The seller delivers by providing a <strong>fork link</strong>: a link to a copy of the repository on the code-hosting platform
          that the buyer can access. The link appears in the buyer's My Purchases page.
        </li>
        <li>
          The buyer checks the delivery. They can press <strong>Confirm Receipt</strong> or <strong>Report a problem</strong> within{' '}
          {DISPUTE_WINDOW_HOURS} hours of delivery.
        </li>
        <li>Once the sale completes, the seller's share is paid out by bank transfer within 5 working days.</li>
      </ol>

      <h2 id="escrow">4. Payments and escrow</h2>
      <p>
        Prices are shown and charged in US dollars. Each purchase is a <strong>one-time payment</strong>; there is no subscription and
        nothing renews.
      </p>
      <p>
        Card payments are processed by Stripe. Your card details are entered into Stripe's secure payment form and sent directly to Stripe;
        they never touch our servers and we never store them.
      </p>
      <p>
        Every trade is escrow-protected: <strong>the buyer's funds are held by the platform until delivery is confirmed</strong>, either by
        the buyer, automatically at the end of the dispute window, or by an admin's decision in a dispute. Funds held in escrow do not earn
        interest for either party.
      </p>

      <h2 id="delivery">5. Delivery and the dispute window</h2>
      <p>
        The seller must deliver within the delivery timeframe stated on the listing (from instant up to 3-5 days) by adding the fork link to
        the order. Delivery is complete when the fork link is available to the buyer.
      </p>
      <p>
        From the moment of delivery the buyer has a{' '}
        <strong>
          dispute window of {DISPUTE_WINDOW_DAYS} days ({DISPUTE_WINDOW_HOURS} hours)
        </strong>
        . During it the buyer can:
      </p>
      <ul>
        <li>
          press <strong>Confirm Receipt</strong> to confirm that the delivery matches the listing, which releases the funds to the seller
          straight away; or
        </li>
        <li>
          press <strong>Report a problem</strong> to open a dispute, which keeps the funds in escrow until it is resolved.
        </li>
      </ul>
      <p>
        If the buyer does neither, the delivery is <strong>confirmed automatically after {DISPUTE_WINDOW_HOURS} hours</strong> and the funds
        are released to the seller. Once a sale is confirmed, it can no longer be disputed through Forkmarket.
      </p>

      <h2 id="disputes">6. Disputes and refunds</h2>
      <p>
        When a buyer reports a problem, both parties should try to resolve it first: the seller may fix the repository or send a working
        fork link. If that does not settle it, a Forkmarket admin reviews the listing, the delivery and what both parties tell us, and
        decides to either:
      </p>
      <ul>
        <li>
          <strong>release</strong> the funds to the seller, where the delivery substantially matches the listing; or
        </li>
        <li>
          <strong>refund</strong> the buyer in full, where the code was not delivered, is materially different from its description, or does
          not work as described.
        </li>
      </ul>
      <p>
        A refunded buyer's licence ends and they must delete any copies of the code they received. Admin decisions are final as far as
        Forkmarket is concerned, but they do not affect any rights you have under the law. Because a purchase is digital content delivered
        at your request, you will not have a separate right to cancel once delivery has started, except as described in this section.
      </p>

      <h2 id="licences">7. Licences and lifetime access</h2>
      <p>
        Buying a listing gives you a non-exclusive, perpetual licence to the delivered code, under the licence shown on the listing, with{' '}
        <strong>lifetime access</strong> to your copy through your fork link. The seller keeps ownership of the code. The licence types are:
      </p>
      <dl>
        <dt>Personal</dt>
        <dd>Use in your own non-commercial projects, such as learning, personal sites and hobby apps.</dd>
        <dt>Commercial</dt>
        <dd>Everything in Personal, plus use in one commercial product or client project, including ones that earn revenue.</dd>
        <dt>Unlimited</dt>
        <dd>Everything in Commercial, in any number of commercial products and client projects.</dd>
      </dl>
      <p>
        Unless the seller says otherwise in the listing, no licence lets you resell, sublicense or redistribute the source code itself as a
        template, starter kit or competing listing. Sellers may add further terms in their listing as long as they do not conflict with
        these Terms.
      </p>
      <h3 id="updates">Updates and access after the sale</h3>
      <p>
        A listing delivered through GitHub follows its repository: each release the seller publishes there appears in the listing’s
        changelog. A listing the seller delivers by hand gets version notes the seller publishes on Forkmarket. Buyers whose purchase is
        {UPDATE_RECIPIENTS_IN_WORDS} are told of each new version in the app, and by e-mail unless they turn update e-mails off on their
        profile.
      </p>
      <ul>
        <li>
          <strong>Delivered through GitHub.</strong> {ACCESS_RULE.github.keep} {ACCESS_RULE.github.refund}
        </li>
        <li>
          <strong>Delivered by the seller.</strong> {ACCESS_RULE.manual.keep} {ACCESS_RULE.manual.refund}
        </li>
      </ul>
      <p>
        Forkmarket does not promise that a seller will publish updates; what a listing offers is what its description says. A seller can
        still remove a collaborator on GitHub themselves: if that happens after completion, contact us (section 17).
      </p>

      <h2 id="selling">8. Selling on Forkmarket</h2>
      <p>When you list something for sale you confirm that:</p>
      <ul>
        <li>you own the code or have the right to sell and licence it, including any third-party assets it bundles;</li>
        <li>open-source components are used in line with their licences, and those licences are disclosed where they require it;</li>
        <li>the title, description, tech stack, screenshots, demo and support terms are accurate, and the code works as described;</li>
        <li>the repository contains no malware, hidden tracking, secret keys, credentials or personal data of others;</li>
        <li>
          you will deliver the fork link within your stated delivery timeframe and provide any setup call, email support or bespoke
          development you advertise.
        </li>
      </ul>
      <p>
        You can edit, hide or delete your listings at any time. Hiding or deleting a listing does not affect buyers who have already
        purchased it: they keep their licence and access.
      </p>

      <h2 id="fees-payouts">9. Fees and payouts</h2>
      <ul>
        <li>
          Forkmarket charges a <strong>platform fee of {PLATFORM_FEE_PERCENT}% of the price</strong> of each sale (rounded to the nearest
          cent). The seller receives the remaining <strong>{SELLER_SHARE_PERCENT}%</strong>. For example, on a{' '}
          {formatCents(FEE_EXAMPLE.amountCents)} sale the fee is {formatCents(FEE_EXAMPLE.applicationFeeCents)} and the seller receives{' '}
          {formatCents(FEE_EXAMPLE.sellerShareCents)}. Listing is free.
        </li>
        <li>
          Payouts are made by <strong>bank transfer within 5 working days</strong> after a sale completes (when the buyer confirms receipt,
          the {DISPUTE_WINDOW_HOURS}-hour window passes, or a dispute is resolved in the seller's favour).
        </li>
        <li>
          To be paid you must add bank details on your Profile page. An admin approves them, which usually takes{' '}
          <strong>1-2 business days</strong>. Payouts go only to approved bank details; completed sales wait until your details are
          approved. Changing approved details requires approval again.
        </li>
        <li>
          You are responsible for any taxes on your sales and for keeping your own records. Your bank may charge fees for receiving
          transfers, including currency conversion.
        </li>
      </ul>

      <h2 id="acceptable-use">10. Acceptable use</h2>
      <p>You must not:</p>
      <ul>
        <li>list code you do not have the right to sell, or copies of other people's listings;</li>
        <li>list or deliver malicious, deceptive or unlawful code or content;</li>
        <li>arrange payment outside Forkmarket for a sale that started on Forkmarket, to avoid fees or escrow;</li>
        <li>abuse the dispute process, for example by reporting a problem after keeping working code;</li>
        <li>scrape, overload or interfere with the website, or try to access accounts or data that are not yours.</li>
      </ul>

      <h2 id="intellectual-property">11. Intellectual property</h2>
      <p>
        Sellers keep all rights in their listings and code. By publishing a listing you let us display its text, screenshots and demo links
        on Forkmarket and in promotion of the marketplace. The Forkmarket name, design and website code belong to us. Technology names and
        logos shown on listings belong to their respective owners. If you believe a listing infringes your rights, contact us at{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> and we will review it promptly.
      </p>

      <h2 id="suspension">12. Suspension and closing accounts</h2>
      <p>
        We may hide listings, hold payouts or suspend accounts that break these Terms or where we reasonably suspect fraud, while we
        investigate. Funds in escrow at that time are released or refunded according to section 6. You may stop using Forkmarket at any
        time; ask us to close your account and we will do so once any open sales and payouts are settled.
      </p>

      <h2 id="disclaimers">13. Disclaimers</h2>
      <p>
        Listings are created by independent sellers. Apart from the escrow and dispute process above, we do not review, test or guarantee
        any code, and the website is provided "as is". Our <Link to="/disclaimer">Disclaimer</Link> explains this in more detail.
      </p>

      <h2 id="liability">14. Limitation of liability</h2>
      <p>
        Nothing in these Terms limits liability that cannot be limited by law, such as liability for death or personal injury caused by
        negligence, or for fraud. Subject to that:
      </p>
      <ul>
        <li>we are not liable for loss of profits, revenue, data or business opportunity, or for indirect or consequential loss;</li>
        <li>
          our total liability to you for all claims arising from your use of Forkmarket is limited to{' '}
          <strong>the greater of 100 GBP or the fees you paid to us in the 6 months</strong> before the event giving rise to the claim.
        </li>
      </ul>

      <h2 id="changes">15. Changes to these terms</h2>
      <p>
        We may update these Terms as the service changes. The "Last updated" date at the top shows the current version. For significant
        changes we will give signed-in users notice before they take effect. Purchases made before a change remain governed by the Terms in
        force when they were made.
      </p>

      <h2 id="law">16. Governing law</h2>
      <p>
        These Terms are governed by the laws of England and Wales, and the courts of England and Wales have jurisdiction. If you are a
        consumer living elsewhere, you keep the protection of the mandatory laws of your country of residence.
      </p>

      <h2 id="contact">17. Contact</h2>
      <p>
        Questions about these Terms? Email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or visit the{' '}
        <Link to="/help">Help Center</Link>.
      </p>
    </LegalPage>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Terms of Service · Forkmarket' },
    {
      name: 'description',
      content: `The terms for buying and selling on Forkmarket: escrow, fork delivery, the ${DISPUTE_WINDOW_HOURS}-hour dispute window, licences, the ${PLATFORM_FEE_PERCENT}% platform fee and payouts.`,
    },
  ]
}
