import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { ListingFormSchema, listingInputFromForm, MAX_IMAGES, TOO_MANY_IMAGES_MESSAGE } from '~/lib/listing-schema'
import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import type { SourceRepositoryData } from '~/lib/source-repository'
import { getBankDetailsStatus } from '../domain/bank-details.server.ts'
import { isAppError, type AppError } from '../domain/errors.server.ts'
import { listingRepository, listRepositoryChoices, setListingRepository } from '../domain/github-listing-sources.server.ts'
import { chosenFiles, uploadImages } from '../domain/images.server.ts'
import { createListing, setListingVisibility, updateListing } from '../domain/listings.server.ts'
import { readFormBody } from '../http/form-data.server.ts'
import { redirectWithToast } from '../http/responses.server.ts'
import { githubEnabled } from '../infra/github.server.ts'

/** Images the post keeps (its own image list minus the "remove" ticks), before new files. */
function keptImageCount(formData: FormData): number {
  const removed = new Set(formData.getAll('removeImages').map(String))
  return new Set(
    formData
      .getAll('screenshots')
      .map(String)
      .filter((u) => u && !removed.has(u)),
  ).size
}

/**
 * What the form's "Source repository" offers (issue 16): the repositories the
 * seller's installations grant and, when editing, the one connected now (kept
 * selectable even when GitHub did not list it, so a save never drops it).
 */
export async function listingFormSource(sellerId: string, listingId?: string): Promise<SourceRepositoryData & { selected: string }> {
  const [choices, current] = await Promise.all([
    listRepositoryChoices(sellerId),
    listingId ? listingRepository(listingId) : Promise.resolve(null),
  ])
  return {
    enabled: githubEnabled(),
    repositories: choices.repositories.map(({ id, fullName, ownerType, connectable, reason }) => ({
      id,
      fullName,
      ownerType,
      connectable,
      reason,
    })),
    connected: choices.installations.some((installation) => installation.active),
    unavailable: choices.unavailable,
    current: current ? { id: current.repoId, fullName: current.fullName, accessLost: current.accessLostAt !== null } : null,
    selected: current ? String(current.repoId) : '',
  }
}

/**
 * The action behind the create and edit screens (one server function for
 * both). Files posted in `images` (the no-JavaScript uploader) are checked
 * and stored in the same request; with JavaScript they were uploaded before
 * and only their URLs arrive. Callers check the seller owns the listing.
 */
export async function submitListingForm(
  request: Request,
  context: Readonly<RouterContextProvider>,
  target: { sellerId: string; listingId?: string },
) {
  const formData = await readFormBody(request, context)
  const files = chosenFiles(formData.getAll('images'))
  formData.delete('images')
  const submission = parseWithZod(formData, { schema: ListingFormSchema, disableAutoCoercion: true })

  let uploaded: string[] = []
  let imageError: string | undefined
  if (files.length > 0) {
    if (keptImageCount(formData) + files.length > MAX_IMAGES) {
      imageError = `Too many images: ${TOO_MANY_IMAGES_MESSAGE}`
    } else {
      // The valid files are stored even if another file or field is wrong, so a no-JS retry
      // doesn't ask for them again; the refused ones are named, and nothing is saved yet.
      const outcome = await uploadImages(target.sellerId, files)
      uploaded = outcome.images
      if (outcome.rejected.length) imageError = `Not uploaded: ${outcome.rejected.map((r) => r.error).join('. ')}`
    }
  }

  if (submission.status !== 'success' || imageError) {
    return data(
      {
        result: submission.reply(imageError ? { fieldErrors: { images: [imageError] } } : undefined),
        uploadedImages: uploaded,
      },
      // An intent (the no-JS picker's Add) is a step of filling in the form, not a failed save.
      { status: submission.status === undefined && !imageError ? 200 : 400 },
    )
  }

  const input = listingInputFromForm(submission.value, uploaded)
  const repoId = submission.value.githubRepoId
  // Refused by the listing's own rules when it is saved (an image that is not the seller's, issue 26.1): shown on the form.
  const refusedSave = (error: unknown) => {
    if (!isAppError(error) || error.status !== 400) throw error
    return data(
      { result: submission.reply({ formErrors: [error.message], fieldErrors: error.fieldErrors }), uploadedImages: uploaded },
      { status: 400 },
    )
  }
  if (!target.listingId) {
    // A listing delivered through GitHub is created hidden and shown once its repository is connected,
    // so it is never for sale, even for a moment, as a listing its seller delivers by hand.
    const withRepository = typeof repoId === 'number'
    let listing: Awaited<ReturnType<typeof createListing>>
    let bankStatus: Awaited<ReturnType<typeof getBankDetailsStatus>>
    try {
      ;[listing, bankStatus] = await Promise.all([
        createListing(target.sellerId, withRepository ? { ...input, visible: false } : input),
        getBankDetailsStatus(target.sellerId),
      ])
    } catch (error) {
      return refusedSave(error)
    }
    const refused = await connectRepository(listing.id, target.sellerId, repoId)
    if (refused) {
      return redirectWithToast(`/seller/edit/${listing.id}`, {
        type: 'error',
        title: 'Repository not connected',
        description: `Your listing is saved but hidden, without its source repository: ${refused.message}`,
      })
    }
    if (withRepository && input.visible) await setListingVisibility({ listingId: listing.id, sellerId: target.sellerId, visible: true })
    return redirectWithToast(`/listing/${listing.slug}`, {
      title: 'Listing created',
      description: sellerCanTakePayments(bankStatus)
        ? input.visible
          ? 'Your listing is now live in the marketplace.'
          : 'Your listing is saved and hidden from the marketplace.'
        : `Your listing is saved${input.visible ? '' : ' and hidden'}, but it is not in the marketplace and buyers can’t purchase it until you add your bank details on your profile.`,
    })
  }
  let listing: Awaited<ReturnType<typeof updateListing>>
  try {
    listing = await updateListing(target.listingId, target.sellerId, input)
  } catch (error) {
    return refusedSave(error)
  }
  if (!listing) throw data('Listing not found', { status: 404 })
  const refused = await connectRepository(listing.id, target.sellerId, repoId)
  if (refused) {
    const message = `Your other changes are saved; the source repository was not changed: ${refused.message}`
    return data(
      {
        result: submission.reply({ formErrors: [message], fieldErrors: { githubRepoId: [refused.message] } }),
        uploadedImages: [] as string[],
      },
      { status: refused.status },
    )
  }
  return redirectWithToast(`/listing/${listing.slug}`, { title: 'Listing updated', description: 'Your changes have been saved.' })
}

/**
 * Connects the chosen repository (recording its head commit now) or
 * disconnects it (null); `undefined` leaves it as it is. Returns the refusal
 * (a repository the seller cannot connect, GitHub unreachable), or null when done.
 */
async function connectRepository(listingId: string, sellerId: string, repoId: number | null | undefined): Promise<AppError | null> {
  if (repoId === undefined) return null
  try {
    await setListingRepository({ listingId, sellerId, repoId })
    return null
  } catch (error) {
    if (!isAppError(error)) throw error
    return error
  }
}
