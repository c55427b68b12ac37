// What only a listing's seller sees on its page, loaded for the seller alone (app/routes/listing.tsx).
export { BankAlert } from '~/components/dashboard/bank-alert'
export { DeleteConfirmation, DeleteListingButton } from './delete-listing'
