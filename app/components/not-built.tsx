/** A screen whose issue has not landed yet says so plainly (no fake content). */
export function NotBuilt({ title }: { title: string }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-3 text-muted-foreground">This screen is not built yet.</p>
    </div>
  )
}
