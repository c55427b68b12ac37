import { ChevronDown, CircleAlert, Search, SpellCheck } from 'lucide-react'
import * as React from 'react'
import { data, Form, useLocation, useNavigation } from 'react-router'
import { toListingCardData } from '~/components/listing-card'
import { FilterPanel } from '~/components/marketplace/filter-panel'
import { ListingGrid, Pager } from '~/components/marketplace/results'
import { SyncedInput } from '~/components/marketplace/synced-input'
import { useFilterNavigation } from '~/components/marketplace/use-filter-navigation'
import { Alert, AlertDescription, AlertTitle } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Label } from '~/components/ui/label'
import { NativeSelect } from '~/components/ui/native-select'
import {
  countActiveFilters,
  describeFilterError,
  MAX_SEARCH_LENGTH,
  parseFilters,
  readFilterInputs,
  resultOrder,
  serializeFilters,
} from '~/lib/filters'
import { SORT_LABELS, SORT_OPTIONS } from '~/lib/options'
import { PAGE_SIZE, searchListings } from '~/server/domain/search.server'
import { routePolicy } from '~/server/http/route-policy.server'
import type { Route } from './+types/marketplace'

// The same page for every anonymous visitor: a shared cache may keep it (docs/decisions/023).
export const middleware = [routePolicy({ cache: 'public' })]

const PATH = '/marketplace'

export async function loader({ request }: Route.LoaderArgs) {
  const parsed = parseFilters(new URL(request.url).searchParams)
  if (!parsed.ok) {
    const error = { field: parsed.error.field, message: describeFilterError(parsed.error) }
    return data(
      { listings: [], previousHref: null, nextHref: null, search: null, correctedSearch: null, ranked: false, error },
      { status: 400 },
    )
  }
  const { filters, cursor } = parsed
  const result = await searchListings(filters, { cursor, limit: PAGE_SIZE })
  const href = (pageCursor: string | null) => (pageCursor ? `${PATH}?${serializeFilters(filters, { cursor: pageCursor })}` : null)
  return {
    listings: result.listings.map((listing) => toListingCardData(listing)),
    previousHref: href(result.pagination.previousCursor),
    nextHref: href(result.pagination.nextCursor),
    search: filters.search,
    correctedSearch: result.correctedSearch,
    ranked: resultOrder(filters) === 'relevance',
    error: null,
  }
}

export default function Marketplace({ loaderData }: Route.ComponentProps) {
  const location = useLocation()
  const navigation = useNavigation()
  // While a new result page loads, the form already shows what it asked for.
  const pending = navigation.state === 'loading' && navigation.location.pathname === PATH ? navigation.location : null
  const inputs = readFilterInputs(new URLSearchParams((pending ?? location).search))
  const { formProps, clientError } = useFilterNavigation(PATH)
  // A bad link (from the server) replaces the results; a bad entry (in the browser) keeps the last ones.
  const serverError = pending ? null : loaderData.error
  const error = clientError ?? serverError
  const priceError = error && (error.field === 'minPrice' || error.field === 'maxPrice') ? error : null
  const { search, correctedSearch } = loaderData
  const activeFilters = countActiveFilters(inputs)
  // Unfolded at first when a price must be fixed; after that the visitor decides.
  const [filtersOpenAtFirst] = React.useState(priceError !== null)

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Marketplace</h1>
        <p className="mt-2 text-muted-foreground">Apps, templates and full sites from independent developers.</p>
      </div>

      {/* A GET form: every result page is a URL, and it works before (or without) JavaScript. */}
      <Form method="get" action={PATH} className="mt-6" {...formProps}>
        <div className="flex flex-col gap-3 md:flex-row md:items-center">
          <div role="search" className="flex flex-1 gap-2">
            <div className="relative flex-1">
              <Label htmlFor="marketplace-search" className="sr-only">
                Search listings
              </Label>
              <Search
                aria-hidden="true"
                className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <SyncedInput
                id="marketplace-search"
                type="search"
                name="search"
                value={inputs.search}
                maxLength={MAX_SEARCH_LENGTH}
                placeholder="Search apps, templates and sites"
                autoComplete="off"
                className="ps-9"
              />
            </div>
            <Button type="submit">Search</Button>
          </div>
          <div className="flex items-center gap-2">
            <Label htmlFor="marketplace-sort" className="shrink-0">
              Sort by
            </Label>
            <NativeSelect id="marketplace-sort" name="sortBy" value={inputs.sortBy} onChange={() => {}} wrapperClassName="md:w-52">
              {SORT_OPTIONS.map((option) => (
                <option key={option} value={option}>
                  {SORT_LABELS[option]}
                </option>
              ))}
            </NativeSelect>
          </div>
        </div>

        <div className="mt-6 grid items-start gap-8 lg:grid-cols-[15rem_minmax(0,1fr)]">
          <aside aria-labelledby="filters-heading">
            {/*
              Folded on small screens so the results come first; always unfolded
              from lg where ::details-content can be styled (elsewhere it stays a toggle).
            */}
            <details
              open={filtersOpenAtFirst}
              className="group/filters rounded-lg border px-4 py-3 lg:border-0 lg:p-0 lg:details-content:[content-visibility:visible]"
            >
              <summary className="flex cursor-pointer list-none items-center justify-between text-sm font-semibold tracking-wide text-muted-foreground uppercase [&::-webkit-details-marker]:hidden lg:supports-[selector(::details-content)]:pointer-events-none">
                <h2 id="filters-heading">
                  Filters
                  {activeFilters ? <span className="ms-1.5 normal-case">({activeFilters} active)</span> : null}
                </h2>
                <ChevronDown
                  aria-hidden="true"
                  className="size-4 transition-transform group-open/filters:rotate-180 lg:supports-[selector(::details-content)]:hidden"
                />
              </summary>
              <div className="pt-4">
                <FilterPanel inputs={inputs} priceError={priceError} />
              </div>
            </details>
          </aside>

          <section aria-labelledby="results-heading" className="@container min-w-0">
            <h2 id="results-heading" className="sr-only">
              Results
            </h2>
            {serverError ? (
              <Alert variant="destructive">
                <CircleAlert aria-hidden="true" />
                <AlertTitle>These filters can't be used</AlertTitle>
                <AlertDescription>{serverError.message}</AlertDescription>
              </Alert>
            ) : null}
            {clientError && !priceError ? (
              <Alert variant="destructive" className="mb-5">
                <CircleAlert aria-hidden="true" />
                <AlertDescription>{clientError.message}</AlertDescription>
              </Alert>
            ) : null}
            {correctedSearch && !pending ? (
              <p role="status" className="mb-4 flex items-center gap-2 text-sm text-muted-foreground">
                <SpellCheck aria-hidden="true" className="size-4 shrink-0" />
                <span>
                  No results for “{search}”. Showing results for <strong className="text-foreground">“{correctedSearch}”</strong>.
                </span>
              </p>
            ) : loaderData.ranked && loaderData.listings.length > 0 && !pending ? (
              <p className="mb-4 text-sm text-muted-foreground">Best matches first.</p>
            ) : null}
            {serverError ? null : <ListingGrid listings={loaderData.listings} loading={pending !== null} />}
            {pending || serverError ? null : <Pager previousHref={loaderData.previousHref} nextHref={loaderData.nextHref} />}
          </section>
        </div>
      </Form>
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [
    { title: 'Marketplace · Forkmarket' },
    {
      name: 'description',
      content: 'Search apps, templates and full sites by stack, price, licence and support, and buy them with escrow protection.',
    },
  ]
}
