import { index, prefix, route, type RouteConfig } from '@react-router/dev/routes'

// The spec's route table (product-spec.md §2), then the JSON API (§7).
export default [
  index('routes/home.tsx'),
  route('login', 'routes/login.tsx'),
  route('auth/callback', 'routes/auth-callback.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('marketplace', 'routes/marketplace.tsx'),
  route('listing/:slug', 'routes/listing.tsx'),
  route('seller/dashboard', 'routes/seller-dashboard.tsx'),
  route('seller-dashboard', 'routes/seller-dashboard.tsx', { id: 'seller-dashboard-alias' }),
  route('seller/create', 'routes/listing-create.tsx'),
  route('create-listing', 'routes/listing-create.tsx', { id: 'create-listing-alias' }),
  route('seller/edit/:id', 'routes/listing-edit.tsx'),
  // Issue 30: a listing's versions; a version note by hand for a listing without GitHub delivery.
  route('seller/edit/:id/versions', 'routes/listing-versions.tsx'),
  route('checkout/:id', 'routes/checkout.tsx'),
  route('purchases', 'routes/purchases.tsx'),
  route('my-purchases', 'routes/my-purchases.tsx'),
  route('profile', 'routes/profile.tsx'),
  // Issue 18: seller pages and the profile's avatar upload.
  route('profile/avatar', 'routes/profile-avatar.ts'),
  route('sellers/:username', 'routes/seller-page.tsx'),
  route('admin', 'routes/admin.tsx'),
  route('admin/disputes/:id', 'routes/admin-dispute.tsx'),
  // Issue 30: reports, the admin's moderation queue, the seller's takedown and counter-notice.
  route('admin/moderation', 'routes/admin-moderation.tsx'),
  route('report', 'routes/report.tsx'),
  route('seller/takedowns/:id', 'routes/seller-takedown.tsx'),
  // Issue 29: the seller's outgoing webhooks (decision 033).
  route('seller/webhooks', 'routes/seller-webhooks.tsx'),
  route('seller/webhooks/:id', 'routes/seller-webhook.tsx'),
  route('sales/:id/messages', 'routes/sale-messages.tsx'),
  route('notifications', 'routes/notifications.tsx'),
  route('purchase-success', 'routes/purchase-success.tsx'),
  route('terms', 'routes/legal/terms.tsx'),
  route('privacy', 'routes/legal/privacy.tsx'),
  route('cookies', 'routes/legal/cookies.tsx'),
  route('disclaimer', 'routes/legal/disclaimer.tsx'),
  route('faq', 'routes/legal/faq.tsx'),
  route('help', 'routes/legal/help.tsx'),
  // Issue 29: the API reference (its OpenAPI description is GET /api/openapi.json).
  route('developers', 'routes/developers.tsx'),

  // Infrastructure
  route('healthz', 'routes/healthz.ts'),
  route('action/set-theme', 'routes/action.set-theme.ts'),

  route('uploads/*', 'routes/uploads.ts'),

  // Delivery through GitHub (issue 16): the App's install and user-authorization flows.
  route('github/install', 'routes/github/install.ts'),
  route('github/install/callback', 'routes/github/install-callback.ts'),
  route('github/authorize', 'routes/github/authorize.ts'),
  route('github/oauth/callback', 'routes/github/oauth-callback.ts'),

  ...prefix('api', [
    route('openapi.json', 'routes/api/openapi.ts'),
    route('users/sync', 'routes/api/users-sync.ts'),
    route('listings', 'routes/api/listings.ts'),
    route('listings/upload-images', 'routes/api/listings-upload-images.ts'),
    route('listings/id/:id', 'routes/api/listing-by-id.ts'),
    // GET by slug; PATCH and DELETE by id (spec §7 shares the path).
    route('listings/:slugOrId', 'routes/api/listing.ts'),
    route('listings/:id/purchase', 'routes/api/listing-purchase.ts'),
    route('listings/:id/reviews', 'routes/api/listing-reviews.ts'),
    route('listings/:id/views', 'routes/api/listing-views.ts'),
    route('seller/listings', 'routes/api/seller-listings.ts'),
    route('seller/transactions', 'routes/api/seller-transactions.ts'),
    route('seller/transactions/:id/deliver', 'routes/api/seller-transaction-deliver.ts'),
    route('seller/payouts', 'routes/api/seller-payouts.ts'),
    route('seller/payouts/:batchId/statement.csv', 'routes/api/seller-payout-statement.ts'),
    route('seller/analytics', 'routes/api/seller-analytics.ts'),
    route('purchases', 'routes/api/purchases.ts'),
    route('purchases/:id/confirm', 'routes/api/purchase-confirm.ts'),
    route('purchases/:id/dispute', 'routes/api/purchase-dispute.ts'),
    route('transactions/:id/messages', 'routes/api/sale-messages.ts'),
    // Issue 30: the report form as JSON.
    route('reports', 'routes/api/reports.ts'),
    route('profile/bank-details', 'routes/api/bank-details.ts'),
    route('admin/transactions', 'routes/api/admin-transactions.ts'),
    route('admin/transactions/:transactionId/mark-paid', 'routes/api/admin-mark-paid.ts'),
    route('admin/transactions/:transactionId/release', 'routes/api/admin-release.ts'),
    route('admin/transactions/:transactionId/refund', 'routes/api/admin-refund.ts'),
    route('admin/bank-details/pending', 'routes/api/admin-bank-details-pending.ts'),
    route('admin/bank-details/:userId/approve', 'routes/api/admin-bank-approve.ts'),
    route('admin/bank-details/:userId/reject', 'routes/api/admin-bank-reject.ts'),
    route('admin/payouts.csv', 'routes/api/admin-payouts-csv.ts'),
    route('admin/payout-batches', 'routes/api/admin-payout-batches.ts'),
    route('admin/payout-batches/:batchId', 'routes/api/admin-payout-batch.ts'),
    route('admin/payout-batches/:batchId/files/:format', 'routes/api/admin-payout-batch-file.ts'),
    route('admin/payout-batches/:batchId/:action', 'routes/api/admin-payout-batch-action.ts'),
    route('admin/audit-log', 'routes/api/admin-audit-log.ts'),
    route('admin/reconciliations/:runId/exceptions.csv', 'routes/api/admin-reconciliation-csv.ts'),
    route('stripe/webhook', 'routes/api/stripe-webhook.ts'),
    route('github/webhook', 'routes/api/github-webhook.ts'),
    route('*', 'routes/api/not-found.ts'),
  ]),

  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
