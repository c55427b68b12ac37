import { Pencil } from 'lucide-react'
import { Link, useFetcher } from 'react-router'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { cn } from '~/components/ui/cn'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { formatCents } from '~/lib/money'

export interface SellerListingRow {
  id: string
  title: string
  slug: string
  priceCents: number
  visible: boolean
}

/** A takedown in force on one of the seller's listings (issue 30): the switch cannot show it again. */
export interface ListingTakedownRef {
  id: string
  status: string
}

/**
 * Show/hide as a one-button form: the button submits the new state, so it
 * works without JavaScript; with it, the switch flips at once (optimistic).
 */
function VisibilitySwitch({ listing }: { listing: SellerListingRow }) {
  const fetcher = useFetcher({ key: `visibility-${listing.id}` })
  const pending = fetcher.formData?.get('visible')
  const visible = typeof pending === 'string' ? pending === 'true' : listing.visible
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="set-visibility" />
      <input type="hidden" name="listingId" value={listing.id} />
      <button
        type="submit"
        name="visible"
        value={String(!visible)}
        role="switch"
        aria-checked={visible}
        aria-label={`Show ${listing.title} in the marketplace`}
        className={cn(
          'relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full shadow-xs transition-colors',
          visible ? 'bg-primary' : 'bg-input',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'pointer-events-none block size-4 rounded-full bg-background shadow-sm transition-transform',
            visible ? 'translate-x-4.5' : 'translate-x-0.5',
          )}
        />
      </button>
    </fetcher.Form>
  )
}

/**
 * `notForSale`: why none of the seller's listings can be bought (issue 26.13), shown on each visible one.
 * `takedowns`: the listings Forkmarket took down (issue 30), by listing id: no switch (only an admin can
 * show one again), a link to the takedown instead.
 */
export function SellerListingsTable({
  listings,
  notForSale = null,
  takedowns = {},
}: {
  listings: SellerListingRow[]
  notForSale?: string | null
  takedowns?: Record<string, ListingTakedownRef>
}) {
  return (
    <Table label="Your listings">
      <TableHeader>
        <TableRow>
          <TableHead>Title</TableHead>
          <TableHead>Price</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Visible</TableHead>
          <TableHead className="text-end">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {listings.map((listing) => (
          <TableRow key={listing.id}>
            <TableCell className="font-medium">
              <Link to={`/listing/${listing.slug}`} className="hover:underline">
                {listing.title}
              </Link>
            </TableCell>
            <TableCell label="Price" className="tabular-nums whitespace-nowrap">
              {formatCents(listing.priceCents)}
            </TableCell>
            <TableCell label="Status">
              <div className="grid justify-items-start gap-1">
                {takedowns[listing.id] ? (
                  <>
                    <Badge variant="destructive">Taken down</Badge>
                    <Link
                      to={`/seller/takedowns/${takedowns[listing.id]!.id}`}
                      className="text-xs font-medium text-foreground underline underline-offset-4"
                    >
                      {takedowns[listing.id]!.status === 'hidden' ? 'See why and answer' : 'See the takedown'}
                      <span className="sr-only"> of {listing.title}</span>
                    </Link>
                  </>
                ) : (
                  <Badge variant={listing.visible ? 'success' : 'secondary'}>{listing.visible ? 'Active' : 'Hidden'}</Badge>
                )}
                {listing.visible && notForSale ? (
                  <Link to="/profile#bank-details" className="text-xs font-medium text-foreground underline underline-offset-4">
                    {notForSale}
                  </Link>
                ) : null}
              </div>
            </TableCell>
            <TableCell label="Visible">
              {takedowns[listing.id] ? (
                <span className="text-xs text-muted-foreground">Taken down by Forkmarket: hidden until an admin restores it</span>
              ) : (
                <VisibilitySwitch listing={listing} />
              )}
            </TableCell>
            <TableCell className="text-end">
              <Button asChild variant="ghost" size="sm">
                <Link to={`/seller/edit/${listing.id}`} aria-label={`Edit ${listing.title}`}>
                  <Pencil aria-hidden="true" />
                  Edit
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
