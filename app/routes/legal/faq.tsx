import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { LegalPage, SUPPORT_EMAIL } from '~/components/prose'
import { DISPUTE_WINDOW_DAYS, DISPUTE_WINDOW_HOURS } from '~/lib/escrow'
import { VERIFIED_SOURCE_TITLE } from '~/lib/github'
import { formatCents, PLATFORM_FEE_PERCENT, SELLER_SHARE_PERCENT, splitFee } from '~/lib/money'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/faq'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

/** The fee example in the copy: a $100.00 sale, split by the same rule as every sale. */
const FEE_EXAMPLE = splitFee(10_000)

type Question = { id: string; question: string; answer: ReactNode }
type Group = { id: string; title: string; questions: Question[] }

const GROUPS: Group[] = [
  {
    id: 'buying',
    title: 'Buying',
    questions: [
      {
        id: 'escrow',
        question: 'How does escrow protection work?',
        answer: (
          <>
            <p>
              When you pay, your money does not go straight to the seller. The platform holds it in escrow until delivery is confirmed,
              either by you pressing Confirm Receipt or automatically when the {DISPUTE_WINDOW_HOURS}-hour dispute window ends. If you
              report a problem, the money stays in escrow until an admin resolves the dispute by releasing it to the seller or refunding
              you.
            </p>
          </>
        ),
      },
      {
        id: 'delivery',
        question: 'How do I receive what I buy?',
        answer: (
          <>
            <p>
              A listing marked "{VERIFIED_SOURCE_TITLE}" is delivered through GitHub: after you pay, your connected GitHub account is
              invited to the seller’s private repository with read access (GitHub e-mails you the invitation too). Accept the invitation,
              then fork the repository: your fork is your copy. The invitation link is also in the Delivery column of{' '}
              <Link to="/purchases">My Purchases</Link>, and your {DISPUTE_WINDOW_HOURS}-hour dispute window starts once you have access. If
              the sale is refunded, your access to the repository is removed.
            </p>
            <p>
              Otherwise the seller delivers a fork link: a link to your own copy of the repository on the code-hosting platform. It appears
              in the Delivery column of <Link to="/purchases">My Purchases</Link> (it shows "Pending" until the seller delivers). Each
              listing states its delivery timeframe, from instant to 3-5 days.
            </p>
          </>
        ),
      },
      {
        id: 'dispute-window',
        question: 'What is the dispute window?',
        answer: (
          <p>
            After the seller delivers, you have {DISPUTE_WINDOW_DAYS} days ({DISPUTE_WINDOW_HOURS} hours) to check the code against the
            listing. During that time you can press Confirm Receipt if everything is fine, or Report a problem if it is not. Your payment
            stays in escrow until one of those happens or the window ends.
          </p>
        ),
      },
      {
        id: 'confirm-receipt',
        question: 'What does Confirm Receipt do?',
        answer: (
          <p>
            Confirm Receipt tells us that the delivery matches the listing. It completes the sale and releases the funds to the seller
            early, without waiting for the {DISPUTE_WINDOW_HOURS} hours to run out. Only press it once you have opened the fork and checked
            the code, because a confirmed sale can no longer be disputed.
          </p>
        ),
      },
      {
        id: 'auto-confirm',
        question: "What happens if I don't confirm or report a problem?",
        answer: (
          <p>
            If you neither press Confirm Receipt nor report a problem, the delivery is confirmed automatically {DISPUTE_WINDOW_HOURS} hours
            after it was made, and the funds are released to the seller. If you need more time to check a large project, report a problem
            before the window ends and explain why.
          </p>
        ),
      },
      {
        id: 'report-a-problem',
        question: 'Something is wrong with my purchase. What should I do?',
        answer: (
          <>
            <p>
              Press Report a problem on the purchase within {DISPUTE_WINDOW_HOURS} hours of delivery and describe what is wrong (for
              example, the fork link does not work, or features described in the listing are missing). This opens a dispute and keeps your
              payment in escrow.
            </p>
            <p>
              The seller can fix the issue. If you cannot agree, a Forkmarket admin reviews the case and either releases the funds to the
              seller or refunds you.
            </p>
          </>
        ),
      },
      {
        id: 'refunds',
        question: 'Can I get a refund?',
        answer: (
          <p>
            Yes, through a dispute: if the code is not delivered, or is materially different from its listing, an admin can refund you in
            full. Refunds are not available after a sale is confirmed, so report problems within the {DISPUTE_WINDOW_HOURS}-hour window. See{' '}
            <Link to="/terms#disputes">Disputes and refunds</Link> in our Terms.
          </p>
        ),
      },
      {
        id: 'lifetime-access',
        question: 'Is it a subscription? How long can I access my purchase?',
        answer: (
          <p>
            No subscription: every purchase is a one-time payment with lifetime access. The fork is your copy, so you keep it even if the
            seller later hides or deletes the listing.
          </p>
        ),
      },
      {
        id: 'licences',
        question: 'Which licence do I need?',
        answer: (
          <p>
            Personal covers your own non-commercial projects. Commercial adds use in one commercial product or client project. Unlimited
            covers any number of commercial products and client projects. No licence lets you resell the source code itself. The full
            wording is in our <Link to="/terms#licences">Terms</Link>.
          </p>
        ),
      },
      {
        id: 'payment',
        question: 'How do I pay, and is my card safe?',
        answer: (
          <p>
            You pay by card at checkout, in US dollars. Payments are processed by Stripe: your card details go straight to Stripe and never
            touch our servers.
          </p>
        ),
      },
    ],
  },
  {
    id: 'selling',
    title: 'Selling',
    questions: [
      {
        id: 'fees',
        question: 'How much does it cost to sell?',
        answer: (
          <p>
            Listing is free. When something sells, Forkmarket keeps a platform fee of {PLATFORM_FEE_PERCENT}% of the price and you receive{' '}
            {SELLER_SHARE_PERCENT}%. On a {formatCents(FEE_EXAMPLE.amountCents)} sale, for example, the fee is{' '}
            {formatCents(FEE_EXAMPLE.applicationFeeCents)} and you receive {formatCents(FEE_EXAMPLE.sellerShareCents)}.
          </p>
        ),
      },
      {
        id: 'payouts',
        question: 'When and how do I get paid?',
        answer: (
          <>
            <p>
              Payouts are made by bank transfer within 5 working days after a sale completes, that is, once the buyer presses Confirm
              Receipt, the {DISPUTE_WINDOW_HOURS}-hour dispute window passes, or a dispute is resolved in your favour.
            </p>
            <p>
              Your Seller Dashboard shows pending payouts and each transaction's status: "Pending Payout" until the transfer is made, then
              "Paid Out" with its payment reference.
            </p>
          </>
        ),
      },
      {
        id: 'bank-details',
        question: 'Why do my bank details need approval?',
        answer: (
          <p>
            To protect your earnings, an admin checks bank details before any money is sent to them. Add them on your{' '}
            <Link to="/profile">Profile</Link> page; approval usually takes 1-2 business days. Payouts only go to approved details, so add
            them early. If you edit approved details, they need approval again.
          </p>
        ),
      },
      {
        id: 'deliver',
        question: 'How do I deliver an order?',
        answer: (
          <p>
            Give the buyer access to a fork of your repository on the code-hosting platform within the delivery timeframe shown on your
            listing. The buyer then has {DISPUTE_WINDOW_HOURS} hours to confirm receipt or report a problem.
          </p>
        ),
      },
      {
        id: 'hide-listing',
        question: 'Can I hide or delete a listing?',
        answer: (
          <p>
            Yes. Hidden listings disappear from the marketplace but stay on your dashboard; deleted listings are removed for good. Buyers
            who already purchased keep their licence and access either way.
          </p>
        ),
      },
    ],
  },
  {
    id: 'account',
    title: 'Your account',
    questions: [
      {
        id: 'sign-in',
        question: 'How do I sign in?',
        answer: <p>Use the Sign In button and choose Google or GitHub. Sign-in is handled by Supabase, so we never see your password.</p>,
      },
      {
        id: 'age',
        question: 'Is there a minimum age?',
        answer: <p>Yes. You must be at least 18 years old to buy or sell on Forkmarket.</p>,
      },
    ],
  },
]

function FaqItem({ item }: { item: Question }) {
  return (
    <div className="mt-8 [&>h3]:mt-0! [&>p:first-of-type]:mt-2">
      <h3 id={item.id}>{item.question}</h3>
      {item.answer}
    </div>
  )
}

export default function FaqPage() {
  return (
    <LegalPage
      title="Frequently Asked Questions"
      lead={`Quick answers about escrow, delivery, the ${DISPUTE_WINDOW_HOURS}-hour dispute window, Confirm Receipt and payouts.`}
      toc={GROUPS.map((group) => ({ id: group.id, title: group.title }))}
    >
      {GROUPS.map((group) => (
        <section key={group.id} aria-labelledby={group.id}>
          <h2 id={group.id}>{group.title}</h2>
          {group.questions.map((item) => (
            <FaqItem key={item.id} item={item} />
          ))}
        </section>
      ))}

      <h2 id="more-help">Still have a question?</h2>
      <p>
        Browse the <Link to="/help">Help Center</Link> or email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We'll get back to
        you as soon as we can.
      </p>
    </LegalPage>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Frequently Asked Questions · Forkmarket' },
    {
      name: 'description',
      content: `Answers about buying and selling on Forkmarket: escrow, fork delivery, the ${DISPUTE_WINDOW_HOURS}-hour dispute window, auto-confirm, Confirm Receipt, fees and payouts.`,
    },
  ]
}
