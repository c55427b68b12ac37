/** Texts of the spec's error catalogue (§8) for checkout, shared by server and screens. */
export const SELLER_SETUP_TITLE = 'Seller Setup Required'
export const SELLER_SETUP_MESSAGE = 'This seller needs to complete their account setup before you can purchase.'
export const PAYMENT_INTENT_FAILED = 'Failed to create payment intent'
export const PAYMENT_FAILED_TITLE = 'Payment Failed'
export const PRICE_CHANGED_MESSAGE = 'The price of this listing has changed. Please check the new price before you pay.'
