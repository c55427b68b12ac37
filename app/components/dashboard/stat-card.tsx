import type * as React from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'

/** One figure with its title and what it counts (seller and admin dashboards). */
export function StatCard({
  title,
  value,
  description,
  icon,
}: {
  title: string
  value: string
  description: string
  icon?: React.ReactNode
}) {
  return (
    <Card className="gap-2 py-5" role="group" aria-label={title}>
      <CardHeader className="flex-row items-center justify-between gap-2 px-5">
        <CardTitle asChild className="text-sm font-medium text-muted-foreground">
          <h2>{title}</h2>
        </CardTitle>
        {icon ? (
          <span aria-hidden="true" className="text-muted-foreground [&_svg]:size-4">
            {icon}
          </span>
        ) : null}
      </CardHeader>
      <CardContent className="px-5">
        <p className="text-2xl font-semibold tabular-nums" data-testid="stat-value">
          {value}
        </p>
        <CardDescription className="mt-1 text-xs">{description}</CardDescription>
      </CardContent>
    </Card>
  )
}
