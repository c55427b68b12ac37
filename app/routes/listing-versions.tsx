import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { ArrowLeft } from 'lucide-react'
import { data, Form, isRouteErrorResponse, Link } from 'react-router'
import { Changelog } from '~/components/listing-detail/changelog'
import { ListingError, ListingNotFound, NotYourListing } from '~/components/listing-detail/listing-not-found'
import { Button } from '~/components/ui/button'
import { Field, FormErrors } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { listingDeliveryMethod } from '~/lib/github'
import { UPDATE_RECIPIENTS_IN_WORDS, VERSION_MAX, VERSION_NOTE_MAX } from '~/lib/releases'
import { VersionNoteSchema } from '~/lib/version-note'
import { isAppError } from '~/server/domain/errors.server'
import { listingRepository } from '~/server/domain/github-listing-sources.server'
import { listingChangelog, publishVersionNote } from '~/server/domain/listing-releases.server'
import { checkListingOwner, getOwnedListing } from '~/server/domain/listings.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { logSecurityEvent } from '~/server/infra/log.server'
import type { Route } from './+types/listing-versions'

// /seller/edit/:id/versions (issue 30): the listing's versions, and — for a listing without GitHub
// delivery — a version note published by hand (version, notes); buyers who own it are told. Only the
// listing's seller (checkListingOwner, as the edit page): 403 for someone else's visible listing,
// 404 otherwise. A plain form POST.
export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.listingWrite })]

const constraint = getZodConstraint(VersionNoteSchema)

async function requireOwnListing({ request, context, params }: Route.LoaderArgs | Route.ActionArgs) {
  const user = await requireUser(request, context)
  const outcome = await checkListingOwner(params.id, user.id)
  if (outcome === 'forbidden') {
    logSecurityEvent('forbidden', request, { userId: user.id, listingId: params.id, reason: 'not the listing owner' })
    throw data('You can only publish versions of your own listings', { status: 403 })
  }
  const listing = outcome === 'ok' ? await getOwnedListing(params.id, user.id) : undefined
  if (!listing) throw data('Listing not found', { status: 404 })
  return { user, listing }
}

export async function loader(args: Route.LoaderArgs) {
  const { listing } = await requireOwnListing(args)
  const repository = await listingRepository(listing.id)
  const github = repository
    ? listingDeliveryMethod({ githubRepoId: repository.repoId, githubAccessLostAt: repository.accessLostAt }) === 'github'
    : false
  return {
    listing: { id: listing.id, title: listing.title, slug: listing.slug },
    github,
    versions: await listingChangelog(listing.id),
  }
}

export async function action(args: Route.ActionArgs) {
  const { user, listing } = await requireOwnListing(args)
  const formData = await readFormBody(args.request, args.context)
  const submission = parseWithZod(formData, { schema: VersionNoteSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const { told } = await publishVersionNote({ listingId: listing.id, sellerId: user.id, ...submission.value })
    return redirectWithToast(`/seller/edit/${listing.id}/versions`, {
      title: `Version ${submission.value.version} published`,
      description:
        told === 0
          ? 'Nobody owns it yet, so nobody was told.'
          : told === 1
            ? 'The buyer who owns it was told.'
            : `${told} buyers who own it were told.`,
      type: 'success',
    })
  } catch (error) {
    if (!isAppError(error)) throw error
    return data(
      { result: submission.reply({ formErrors: error.fieldErrors ? [] : [error.message], fieldErrors: error.fieldErrors }) },
      { status: error.status },
    )
  }
}

export default function ListingVersions({ loaderData, actionData }: Route.ComponentProps) {
  const { listing, github, versions } = loaderData
  const [form, fields] = useForm({
    id: 'version-note',
    lastResult: actionData?.result,
    constraint,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: VersionNoteSchema }),
  })
  return (
    <div className="mx-auto grid max-w-2xl grid-cols-1 gap-6 px-4 py-8">
      <Link
        to={`/seller/edit/${listing.id}`}
        className="flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Edit listing
      </Link>
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">Versions of “{listing.title}”</h1>
        <p className="text-sm text-muted-foreground">
          Buyers who own this listing (their purchase is {UPDATE_RECIPIENTS_IN_WORDS}) are told of each new version in the app, and by mail
          unless they turned update mails off.
        </p>
      </div>
      {github ? (
        <p className="rounded-lg border p-4 text-sm">
          This listing is delivered through GitHub: its versions are the releases of its repository. Publish a release on GitHub and it
          appears here and on the listing page.
        </p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          <h2 className="text-lg font-semibold">Publish a version note</h2>
          <FormErrors meta={form} />
          <Field
            meta={fields.version}
            label="Version"
            description={`E.g. 1.2.0 or v2-beta, up to ${VERSION_MAX} characters. Each version is published once.`}
          >
            {(control) => <Input {...control} autoComplete="off" />}
          </Field>
          <Field
            meta={fields.notes}
            control="textarea"
            label="What changed"
            description={`Shown in the listing’s changelog and sent to buyers. Up to ${VERSION_NOTE_MAX.toLocaleString('en-US')} characters.`}
          >
            {(control) => <Textarea {...control} rows={6} />}
          </Field>
          <div>
            <Button type="submit">Publish version</Button>
          </div>
        </Form>
      )}
      <Changelog versions={versions} headingLevel="h2" />
    </div>
  )
}

export function meta() {
  return [{ title: 'Versions · Forkmarket' }]
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <ListingNotFound />
  if (isRouteErrorResponse(error) && error.status === 403) return <NotYourListing />
  return <ListingError />
}
