import { CircleCheck, CircleDashed } from 'lucide-react'
import { Link } from 'react-router'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import type { SetupStep } from '~/lib/seller-setup'

/** Issue 26.13: the new seller's setup steps, each with its state and where to do it (sellerSetupSteps). */
export function SetupChecklist({ steps }: { steps: SetupStep[] }) {
  const done = steps.filter((step) => step.done).length
  return (
    <Card aria-labelledby="setup-checklist-title">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="setup-checklist-title">Set up your shop</h2>
        </CardTitle>
        <CardDescription>
          {done} of {steps.length} steps done. Buyers can purchase your listings once your bank details are on file.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-3" aria-label="Setup steps">
          {steps.map((step) => (
            <li key={step.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 rounded-lg border p-3">
              <div className="flex min-w-0 gap-3">
                {step.done ? (
                  <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success" />
                ) : (
                  <CircleDashed aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
                )}
                <div className="grid gap-0.5">
                  <p className="font-medium">
                    {step.title}
                    <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                  </p>
                  <p className="text-sm text-muted-foreground">{step.state}</p>
                </div>
              </div>
              <Link to={step.link.to} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
                {step.link.label}
                <span className="sr-only"> ({step.title})</span>
              </Link>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  )
}
