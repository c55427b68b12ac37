import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { LoaderCircle } from 'lucide-react'
import * as React from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { Switch } from '~/components/ui/switch'
import { Textarea } from '~/components/ui/textarea'
import { showToast } from '~/components/ui/toaster'
import { useHydrated } from '~/components/ui/use-hydrated'
import {
  cleanList,
  ListingFormSchema,
  MAX_PRICE_CENTS,
  MAX_TECH_ITEMS,
  MIN_CARD_PRICE_CENTS,
  TEXT_LIMITS,
  type ListingFormDefaults,
  type ListingFormValue,
} from '~/lib/listing-schema'
import { formatCents, PLATFORM_FEE_RATE } from '~/lib/money'
import {
  DELIVERY_TIMEFRAME_LABELS,
  DELIVERY_TIMEFRAMES,
  EMAIL_SUPPORT_DURATION_LABELS,
  EMAIL_SUPPORT_DURATIONS,
  LICENCE_LABELS,
  LICENCES,
  LISTING_TYPE_LABELS,
  LISTING_TYPES,
} from '~/lib/options'
import type { SourceRepositoryData } from '~/lib/source-repository'
import { DEPENDENCIES, FRAMEWORKS, LANGUAGES } from '~/lib/tech-stack'
import { CharacterCount } from './character-count'
import { ImageUploader } from './image-uploader'
import { MultiSelectPicker } from './multi-select-picker'
import { SourceRepositoryHelp, SourceRepositorySelect } from './source-repository-picker'

export type ListingFormActionData = {
  result?: SubmissionResult<string[]>
  /** Images stored from a no-JavaScript post that failed validation, kept for the next try. */
  uploadedImages?: string[]
}

export type ListingFormProps = {
  mode: 'create' | 'edit'
  defaults: ListingFormDefaults
  actionData?: ListingFormActionData
  /** The seller's GitHub repositories for "Source repository" (issue 16). */
  source: SourceRepositoryData
}

/** Every name the form posts (Conform types `fields` from this). */
type ListingFormFields = Omit<
  ListingFormDefaults,
  'setupCallAvailable' | 'emailSupportAvailable' | 'bespokeDevelopmentAvailable' | 'visible'
> & {
  setupCallAvailable?: string
  emailSupportAvailable?: string
  bespokeDevelopmentAvailable?: string
  visible?: string
  removeImages?: string[]
  images?: File[]
}

function FormSection({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  const id = React.useId()
  return (
    <Card aria-labelledby={id} role="group">
      <CardHeader>
        <CardTitle asChild>
          <h2 id={id}>{title}</h2>
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-6">{children}</CardContent>
    </Card>
  )
}

/** A field's help text with its counter at the end of the line. */
function Hint({ text, children }: { text: string; children: React.ReactNode }) {
  return (
    <span className="flex flex-wrap justify-between gap-x-4">
      <span>{text}</span> {children}
    </span>
  )
}

const on = (value: unknown) => value === 'on' || value === true
const asList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : []

/**
 * The listing form of spec §2 (create and edit). A plain multipart post that
 * works without JavaScript; Conform validates with the same schema as the
 * action. Conditional fields hide while their switch is off (with JS only:
 * without it every field shows, and the server ignores the switched-off ones).
 */
const TECH_PICKERS = [
  { name: 'languages', label: 'Languages', noun: 'language', options: LANGUAGES },
  { name: 'frameworks', label: 'Frameworks', noun: 'framework', options: FRAMEWORKS },
  { name: 'dependencies', label: 'Dependencies & services', noun: 'dependency', options: DEPENDENCIES },
] as const

export function ListingForm({ mode, defaults, actionData, source }: ListingFormProps) {
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const submitting = navigation.state === 'submitting' && navigation.formMethod?.toLowerCase() === 'post'
  const [form, fields] = useForm<ListingFormFields, ListingFormValue>({
    id: 'listing-form',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    defaultValue: {
      ...defaults,
      setupCallAvailable: defaults.setupCallAvailable ? 'on' : undefined,
      emailSupportAvailable: defaults.emailSupportAvailable ? 'on' : undefined,
      bespokeDevelopmentAvailable: defaults.bespokeDevelopmentAvailable ? 'on' : undefined,
      visible: defaults.visible ? 'on' : undefined,
    },
    onValidate({ formData }) {
      formData.delete('images')
      return parseWithZod(formData, { schema: ListingFormSchema, disableAutoCoercion: true })
    },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })

  // Toggles and lists start from what the server echoed back (no-JS retry) or the defaults.
  const [setupCall, setSetupCall] = React.useState(() => on(fields.setupCallAvailable.initialValue))
  const [emailSupport, setEmailSupport] = React.useState(() => on(fields.emailSupportAvailable.initialValue))
  const [bespoke, setBespoke] = React.useState(() => on(fields.bespokeDevelopmentAvailable.initialValue))
  const [timeframe, setTimeframe] = React.useState(() => String(fields.deliveryTimeframe.initialValue ?? ''))
  const [repository, setRepository] = React.useState(() => String(fields.githubRepoId.initialValue ?? ''))
  const removed = new Set(asList(fields.removeImages.initialValue))
  const initialImages = [...asList(fields.screenshots.initialValue), ...(actionData?.uploadedImages ?? [])].filter((u) => !removed.has(u))
  const initialThumbnail = String(fields.thumbnailUrl.initialValue ?? '') || null

  React.useEffect(() => {
    if (actionData?.result?.status !== 'error') return
    const formErrors = actionData.result.error?.['']
    showToast({
      type: 'error',
      title: 'Error',
      description: formErrors?.[0] ?? 'The listing could not be saved. Please check the highlighted fields.',
    })
  }, [actionData])

  const show = (switchedOn: boolean) => !hydrated || switchedOn
  const title = mode === 'create' ? 'Create New Listing' : 'Edit Listing'

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-muted-foreground">
        {mode === 'create'
          ? 'Describe what you are selling. Buyers see everything except your repository and the private delivery link.'
          : 'Changes are shown on your listing page as soon as you save them.'}
      </p>

      <Form method="post" encType="multipart/form-data" className="mt-8 grid gap-6" {...getFormProps(form)}>
        {/*
          Without JavaScript, Enter in a text field "clicks" the form's first submit button: make
          that a plain save, not a picker's "Add" button further down.
        */}
        {hydrated ? null : <button type="submit" hidden tabIndex={-1} aria-hidden="true" />}
        <FormErrors meta={form} />

        <FormSection title="Basic Information">
          {/* No maxLength on limited fields: a long paste is shown whole, counted and refused with a message, never cut silently. */}
          <Field meta={fields.title} label="Title" description={<CharacterCount value={fields.title.value} max={TEXT_LIMITS.title} />}>
            {(props) => <Input {...props} required placeholder="e.g. LaunchKit SaaS Starter" />}
          </Field>
          <Field
            meta={fields.shortDescription}
            label="Short description"
            description={
              <Hint text="One or two sentences shown on marketplace cards.">
                <CharacterCount value={fields.shortDescription.value} max={TEXT_LIMITS.shortDescription} />
              </Hint>
            }
          >
            {(props) => <Input {...props} required />}
          </Field>
          <Field
            meta={fields.longDescription}
            label="Long description"
            control="textarea"
            description={<CharacterCount value={fields.longDescription.value} max={TEXT_LIMITS.longDescription} />}
          >
            {(props) => <Textarea {...props} rows={8} />}
          </Field>
          <Field meta={fields.type} label="Type" control="select">
            {(props) => (
              <NativeSelect {...props} required>
                {LISTING_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {LISTING_TYPE_LABELS[t]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field meta={fields.tags} label="Tags" description="Separate tags with commas, e.g. saas, billing, dashboard.">
            {(props) => <Input {...props} />}
          </Field>
        </FormSection>

        <FormSection title="Pricing & License">
          <Field
            meta={fields.price}
            label="Price (USD)"
            type="number"
            description={`What the buyer pays, in dollars: card payments can be from ${formatCents(MIN_CARD_PRICE_CENTS)} to ${formatCents(MAX_PRICE_CENTS)}. The platform fee is ${PLATFORM_FEE_RATE * 100}%.`}
          >
            {(props) => (
              <Input {...props} required min={0.01} max={MAX_PRICE_CENTS / 100} step={0.01} inputMode="decimal" placeholder="49.00" />
            )}
          </Field>
          <Field meta={fields.licence} label="Licence" control="select">
            {(props) => (
              <NativeSelect {...props} required>
                {LICENCES.map((l) => (
                  <option key={l} value={l}>
                    {LICENCE_LABELS[l]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </FormSection>

        <FormSection title="Technical Details" description="Pick from the lists or add your own.">
          {TECH_PICKERS.map((picker) => (
            <MultiSelectPicker
              key={picker.name}
              {...picker}
              // A no-JS "Add" round trip echoes the raw text ("  Zig "): shown as the server will store it.
              defaultValue={cleanList(asList(fields[picker.name].initialValue))}
              errors={fields[picker.name].errors}
              errorId={fields[picker.name].errorId}
              max={MAX_TECH_ITEMS}
              addIntent={form.validate.getButtonProps({ name: picker.name }).value}
            />
          ))}
        </FormSection>

        <FormSection title="Media & Links">
          <div className="grid gap-2">
            <h3 className="text-sm font-medium">Images</h3>
            <ImageUploader
              defaultScreenshots={initialImages}
              defaultThumbnail={initialThumbnail}
              errors={[...(fields.images.errors ?? []), ...(fields.screenshots.errors ?? []), ...(fields.thumbnailUrl.errors ?? [])]}
              errorId={fields.images.errorId}
            />
          </div>
          <Field meta={fields.demoUrl} label="Demo URL" type="url" description="Optional. A live demo buyers can try.">
            {(props) => <Input {...props} placeholder="https://" />}
          </Field>
        </FormSection>

        <FormSection title="Support & Delivery">
          {source.enabled || source.current ? (
            <Field
              meta={fields.githubRepoId}
              label="Source repository"
              control="select"
              description={<SourceRepositoryHelp data={source} />}
            >
              {(props) => <SourceRepositorySelect props={props} data={source} onChange={(event) => setRepository(event.target.value)} />}
            </Field>
          ) : null}

          <Field meta={fields.setupCallAvailable} label="Setup call available" control="checkbox">
            {(props) => <Switch {...props} onChange={(event) => setSetupCall(event.target.checked)} />}
          </Field>
          <div hidden={!show(setupCall)}>
            <Field
              meta={fields.setupCallDetails}
              label="Setup call details"
              control="textarea"
              description={<CharacterCount value={fields.setupCallDetails.value} max={TEXT_LIMITS.setupCallDetails} />}
            >
              {(props) => <Textarea {...props} rows={3} placeholder="e.g. A 30-minute video call to walk through deployment." />}
            </Field>
          </div>

          <Field meta={fields.emailSupportAvailable} label="Email support available" control="checkbox">
            {(props) => <Switch {...props} onChange={(event) => setEmailSupport(event.target.checked)} />}
          </Field>
          <div hidden={!show(emailSupport)}>
            <Field meta={fields.emailSupportDuration} label="Email support duration" control="select">
              {(props) => (
                <NativeSelect {...props}>
                  <option value="">Select a duration</option>
                  {EMAIL_SUPPORT_DURATIONS.map((d) => (
                    <option key={d} value={d}>
                      {EMAIL_SUPPORT_DURATION_LABELS[d]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          </div>

          <Field
            meta={fields.deliveryTimeframe}
            label="Delivery timeframe"
            control="select"
            description={
              show(repository !== '') ? 'With a source repository, buyers are invited the moment they pay, whatever this says.' : undefined
            }
          >
            {(props) => (
              <NativeSelect {...props} onChange={(event) => setTimeframe(event.target.value)}>
                <option value="">Select a timeframe</option>
                {DELIVERY_TIMEFRAMES.map((d) => (
                  <option key={d} value={d}>
                    {DELIVERY_TIMEFRAME_LABELS[d]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <div hidden={!show(timeframe === 'instant' && repository === '')}>
            <Field
              meta={fields.deliveryUrl}
              label="Private delivery link"
              type="url"
              description="Only for instant delivery without a source repository: released to the buyer the moment payment succeeds. Never shown publicly."
            >
              {(props) => <Input {...props} placeholder="https://github.com/you/your-template" />}
            </Field>
          </div>

          <Field meta={fields.bespokeDevelopmentAvailable} label="Bespoke development available" control="checkbox">
            {(props) => <Switch {...props} onChange={(event) => setBespoke(event.target.checked)} />}
          </Field>
          <div hidden={!show(bespoke)}>
            <Field
              meta={fields.bespokeDevelopmentRate}
              label="Hourly rate (USD)"
              type="number"
              description="Optional. Leave empty to agree a rate with each buyer."
            >
              {(props) => <Input {...props} min={0} step={1} inputMode="numeric" placeholder="90" />}
            </Field>
          </div>

          <Field
            meta={fields.additionalNotes}
            label="Additional notes"
            control="textarea"
            description={<CharacterCount value={fields.additionalNotes.value} max={TEXT_LIMITS.additionalNotes} />}
          >
            {(props) => <Textarea {...props} rows={3} />}
          </Field>
        </FormSection>

        <FormSection title="Visibility">
          <Field
            meta={fields.visible}
            label="Visible in the marketplace"
            control="checkbox"
            description="Hidden listings are only visible to you."
          >
            {(props) => <Switch {...props} />}
          </Field>
        </FormSection>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button asChild variant="outline">
            <Link to="/seller/dashboard">Cancel</Link>
          </Button>
          <Button type="submit" disabled={submitting}>
            {submitting ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : null}
            {mode === 'create' ? 'Create Listing' : 'Update Listing'}
          </Button>
        </div>
      </Form>
    </div>
  )
}
