import { Link } from 'react-router'
import { Button } from '~/components/ui/button'
import { ErrorList } from '~/components/ui/error-list'
import { Label } from '~/components/ui/label'
import { NativeSelect } from '~/components/ui/native-select'
import {
  LICENCE_FILTER_LABELS,
  LICENCE_FILTER_OPTIONS,
  TYPE_FILTER_LABELS,
  TYPE_FILTERS,
  type FilterError,
  type FilterInputs,
  type LicenceFilter,
} from '~/lib/filters'
import { pluralize } from '~/lib/format'
import { MIN_RATING_OPTIONS } from '~/lib/ratings'
import { DEPENDENCIES, FRAMEWORKS, LANGUAGES } from '~/lib/tech-stack'
import { OptionGroup } from './option-group'
import { SyncedInput } from './synced-input'

const PRICE_ERROR_ID = 'price-filter-error'

const SUPPORT_FLAGS = [
  { name: 'hasSetupCall', label: 'Setup call' },
  { name: 'hasEmailSupport', label: 'Email support' },
  { name: 'hasBespokeDev', label: 'Bespoke development' },
] as const

/**
 * The filter controls of the marketplace's GET form. Select and checkbox
 * values follow the URL (the route passes the pending one while navigating),
 * so Back/Forward and shared links always show what the results are for.
 */
export function FilterPanel({ inputs, priceError }: { inputs: FilterInputs; priceError: FilterError | null }) {
  // Only the field the message is about is marked invalid (`minPrice=abc` leaves Max price alone).
  const invalid = (field: 'minPrice' | 'maxPrice') =>
    priceError?.field === field ? { 'aria-invalid': true, 'aria-describedby': PRICE_ERROR_ID } : {}
  // A link may carry licence=unlimited (the API allows it); keep it selectable then.
  const licences: readonly LicenceFilter[] =
    inputs.licence === 'unlimited' ? [...LICENCE_FILTER_OPTIONS, 'unlimited'] : LICENCE_FILTER_OPTIONS
  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <Label htmlFor="filter-type">Type</Label>
        <NativeSelect id="filter-type" name="type" value={inputs.type} onChange={() => {}}>
          {TYPE_FILTERS.map((type) => (
            <option key={type} value={type}>
              {TYPE_FILTER_LABELS[type]}
            </option>
          ))}
        </NativeSelect>
      </div>

      <div className="grid gap-2">
        <Label htmlFor="filter-licence">Licence</Label>
        <NativeSelect id="filter-licence" name="licence" value={inputs.licence} onChange={() => {}}>
          {licences.map((licence) => (
            <option key={licence} value={licence}>
              {LICENCE_FILTER_LABELS[licence]}
            </option>
          ))}
        </NativeSelect>
      </div>

      <div className="grid gap-2">
        <Label htmlFor="filter-min-rating">Rating</Label>
        <NativeSelect id="filter-min-rating" name="minRating" value={inputs.minRating} onChange={() => {}}>
          <option value="">Any rating</option>
          {MIN_RATING_OPTIONS.map((stars) => (
            <option key={stars} value={String(stars)}>
              {pluralize(stars, 'star')} &amp; up
            </option>
          ))}
        </NativeSelect>
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Price (USD)</legend>
        <div className="grid grid-cols-2 gap-2">
          <div className="grid gap-1.5">
            <Label htmlFor="filter-min-price" className="text-xs text-muted-foreground">
              Min price
            </Label>
            <SyncedInput
              id="filter-min-price"
              name="minPrice"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              placeholder="0"
              value={inputs.minPrice}
              {...invalid('minPrice')}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="filter-max-price" className="text-xs text-muted-foreground">
              Max price
            </Label>
            <SyncedInput
              id="filter-max-price"
              name="maxPrice"
              type="number"
              inputMode="decimal"
              min={0}
              step={0.01}
              placeholder="Any"
              value={inputs.maxPrice}
              {...invalid('maxPrice')}
            />
          </div>
        </div>
        <ErrorList id={PRICE_ERROR_ID} errors={priceError ? [priceError.message] : null} />
      </fieldset>

      <div className="grid gap-2">
        <OptionGroup name="languages" label="Languages" options={LANGUAGES} selected={inputs.languages} />
        <OptionGroup name="frameworks" label="Frameworks" options={FRAMEWORKS} selected={inputs.frameworks} />
        <OptionGroup name="dependencies" label="Dependencies" options={DEPENDENCIES} selected={inputs.dependencies} />
      </div>

      <fieldset>
        <legend className="mb-2 text-sm font-medium">Support</legend>
        {/* Native checkboxes in their labels, like the stack options above. */}
        <div className="option-list">
          {SUPPORT_FLAGS.map((flag) => (
            <label key={flag.name}>
              <input type="checkbox" name={flag.name} value="true" checked={inputs[flag.name]} onChange={() => {}} />
              {flag.label}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit">Apply filters</Button>
        <Button asChild variant="ghost">
          <Link to="/marketplace">Clear all</Link>
        </Button>
      </div>
    </div>
  )
}
