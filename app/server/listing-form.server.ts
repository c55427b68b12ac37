import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { ListingFormSchema, listingInputFromForm, MAX_IMAGES, TOO_MANY_IMAGES_MESSAGE } from '~/lib/listing-schema'
import { sellerCanTakePayments } from '~/lib/seller-eligibility'
import { getBankDetailsStatus } from './bank-details.server.ts'
import { readFormBody } from './form-data.server.ts'
import { chosenFiles, uploadImages } from './images.server.ts'
import { createListing, updateListing } from './listings.server.ts'
import { redirectWithToast } from './responses.server.ts'

/** Images the post keeps (its own image list minus the "remove" ticks), before new files. */
function keptImageCount(formData: FormData): number {
  const removed = new Set(formData.getAll('removeImages').map(String))
  return new Set(formData.getAll('screenshots').map(String).filter((u) => u && !removed.has(u))).size
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
      const outcome = await uploadImages(files)
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
  if (!target.listingId) {
    const [listing, bankStatus] = await Promise.all([createListing(target.sellerId, input), getBankDetailsStatus(target.sellerId)])
    return redirectWithToast(`/listing/${listing.slug}`, {
      title: 'Listing created',
      description: sellerCanTakePayments(bankStatus)
        ? input.visible
          ? 'Your listing is now live in the marketplace.'
          : 'Your listing is saved and hidden from the marketplace.'
        : `Your listing is ${input.visible ? 'in the marketplace' : 'saved and hidden'}, but buyers can’t purchase it until you add your bank details on your profile.`,
    })
  }
  const listing = await updateListing(target.listingId, target.sellerId, input)
  if (!listing) throw data('Listing not found', { status: 404 })
  return redirectWithToast(`/listing/${listing.slug}`, { title: 'Listing updated', description: 'Your changes have been saved.' })
}
