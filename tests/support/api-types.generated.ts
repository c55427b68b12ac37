export interface paths {
  '/api/openapi.json': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** This API's OpenAPI 3.1 description */
    get: operations['getApiOpenapiJson']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/users/sync': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** The product user of your session or token */
    post: operations['postApiUsersSync']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/listings': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Search the marketplace */
    get: operations['getApiListings']
    put?: never
    /** Create a listing (price in cents; Idempotency-Key makes retries safe) */
    post: operations['postApiListings']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/listings/upload-images': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Upload listing images (multipart, repeated images) */
    post: operations['postApiListingsUploadImages']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/listings/id/{id}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One listing by id (hidden ones: their seller only) */
    get: operations['getApiListingsIdId']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/listings/{slugOrId}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One listing by slug (or id) */
    get: operations['getApiListingsSlugOrId']
    put?: never
    post?: never
    /** Delete your listing (archived when it has sales) */
    delete: operations['deleteApiListingsSlugOrId']
    options?: never
    head?: never
    /** Update your listing (fields not sent keep their value) */
    patch: operations['patchApiListingsSlugOrId']
    trace?: never
  }
  '/api/listings/{id}/purchase': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Start or resume paying for a listing */
    post: operations['postApiListingsIdPurchase']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/listings/{id}/reviews': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** A listing's reviews, newest first */
    get: operations['getApiListingsIdReviews']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/listings/{id}/views': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Count an anonymous view of a listing */
    post: operations['postApiListingsIdViews']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seller/listings': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Your listings */
    get: operations['getApiSellerListings']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seller/transactions': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Your sales, newest first */
    get: operations['getApiSellerTransactions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seller/transactions/{id}/deliver': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Deliver a sale (the buyer's fork URL) */
    post: operations['postApiSellerTransactionsIdDeliver']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seller/payouts': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Your payout statements, newest first */
    get: operations['getApiSellerPayouts']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seller/payouts/{batchId}/statement.csv': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One of your payout statements as CSV */
    get: operations['getApiSellerPayoutsBatchIdStatementCsv']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/seller/analytics': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Your last 30 days and your balance */
    get: operations['getApiSellerAnalytics']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/purchases': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Your purchases, newest first */
    get: operations['getApiPurchases']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/purchases/{id}/confirm': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Confirm receipt of a delivered purchase */
    post: operations['postApiPurchasesIdConfirm']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/purchases/{id}/dispute': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Report a problem within the dispute window */
    post: operations['postApiPurchasesIdDispute']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/transactions/{id}/messages': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** A sale's message thread */
    get: operations['getApiTransactionsIdMessages']
    put?: never
    /** Write to the other party of a sale */
    post: operations['postApiTransactionsIdMessages']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/profile/bank-details': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Your bank details, masked */
    get: operations['getApiProfileBankDetails']
    put?: never
    /** Save your bank details (pending until an admin approves) */
    post: operations['postApiProfileBankDetails']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/transactions': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Every transaction, newest first */
    get: operations['getApiAdminTransactions']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/transactions/{transactionId}/mark-paid': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Pay one completed sale now, as a one-line payout batch */
    post: operations['postApiAdminTransactionsTransactionIdMarkPaid']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/transactions/{transactionId}/release': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Settle a dispute for the seller */
    post: operations['postApiAdminTransactionsTransactionIdRelease']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/transactions/{transactionId}/refund': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Refund a disputed or undelivered sale */
    post: operations['postApiAdminTransactionsTransactionIdRefund']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/bank-details/pending': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Bank details waiting for approval, unmasked */
    get: operations['getApiAdminBankDetailsPending']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/bank-details/{userId}/approve': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Approve pending bank details (four eyes after a change) */
    post: operations['postApiAdminBankDetailsUserIdApprove']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/bank-details/{userId}/reject': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Reject pending bank details with a reason */
    post: operations['postApiAdminBankDetailsUserIdReject']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/payouts.csv': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The payouts due, with full bank details, as CSV */
    get: operations['getApiAdminPayoutsCsv']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/payout-batches': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The latest payout batches and what a new one would pay */
    get: operations['getApiAdminPayoutBatches']
    put?: never
    /** Prepare a draft payout batch */
    post: operations['postApiAdminPayoutBatches']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/payout-batches/{batchId}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** One payout batch with its sellers and sales */
    get: operations['getApiAdminPayoutBatchesBatchId']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/payout-batches/{batchId}/files/{format}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** Download an exported batch's bank file (pain.001 XML or CSV) */
    get: operations['getApiAdminPayoutBatchesBatchIdFilesFormat']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/payout-batches/{batchId}/{action}': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /** Approve, export, mark sent, reconcile or cancel a payout batch */
    post: operations['postApiAdminPayoutBatchesBatchIdAction']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/audit-log': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** The latest 100 audit entries */
    get: operations['getApiAdminAuditLog']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/admin/reconciliations/{runId}/exceptions.csv': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    /** A reconciliation run's differences as CSV */
    get: operations['getApiAdminReconciliationsRunIdExceptionsCsv']
    put?: never
    post?: never
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/stripe/webhook': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * Stripe events (signed)
     * @description Authenticated by the Stripe-Signature over the raw body (5-minute tolerance); 500 makes Stripe deliver it again.
     */
    post: operations['postApiStripeWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  '/api/github/webhook': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * GitHub App events (signed)
     * @description Authenticated by X-Hub-Signature-256 over the raw body; each X-GitHub-Delivery is applied once.
     */
    post: operations['postApiGithubWebhook']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export interface webhooks {
  'sale.paid': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * sale.paid
     * @description A buyer paid for one of your listings (the money is held in escrow)
     */
    post: operations['webhookSalePaid']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'sale.delivered': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * sale.delivered
     * @description Delivery was confirmed: your link was released, or GitHub confirmed the buyer’s access
     */
    post: operations['webhookSaleDelivered']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'sale.completed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * sale.completed
     * @description The buyer confirmed receipt, or the dispute window ended: your share is due
     */
    post: operations['webhookSaleCompleted']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'sale.disputed': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * sale.disputed
     * @description The buyer reported a problem, or the delivery failed: an admin decides
     */
    post: operations['webhookSaleDisputed']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'sale.refunded': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * sale.refunded
     * @description The buyer was refunded
     */
    post: operations['webhookSaleRefunded']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'review.created': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * review.created
     * @description A buyer reviewed a purchase
     */
    post: operations['webhookReviewCreated']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'payout.sent': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * payout.sent
     * @description A bank transfer to you was sent (its sales and reference)
     */
    post: operations['webhookPayoutSent']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
  'webhook.test': {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    get?: never
    put?: never
    /**
     * webhook.test
     * @description Sent from the endpoint’s page (Send test event) to check that you receive and verify deliveries
     */
    post: operations['webhookWebhookTest']
    delete?: never
    options?: never
    head?: never
    patch?: never
    trace?: never
  }
}
export interface components {
  schemas: {
    Webhook_salePaid: {
      /** @constant */
      type: 'sale.paid'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookSale']
    }
    /** @description The sale as it is after the change */
    WebhookSale: {
      id: string
      /** @enum {string} */
      status: 'paid' | 'delivering' | 'delivered' | 'completed' | 'disputed' | 'refunded' | 'held' | 'pending_payment' | 'failed'
      listing: {
        id: string
        title: string
        slug: string
      }
      amountCents: number
      /** @description ISO 4217, lower case */
      currency: string
      platformFeeCents: number
      sellerShareCents: number
      /** Format: date-time */
      createdAt: string
      paidAt: string | null
      deliveredAt: string | null
      completedAt: string | null
      disputedAt: string | null
      disputeReason: string | null
      refundedAt: string | null
    }
    Webhook_saleDelivered: {
      /** @constant */
      type: 'sale.delivered'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookSale']
    }
    Webhook_saleCompleted: {
      /** @constant */
      type: 'sale.completed'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookSale']
    }
    Webhook_saleDisputed: {
      /** @constant */
      type: 'sale.disputed'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookSale']
    }
    Webhook_saleRefunded: {
      /** @constant */
      type: 'sale.refunded'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookSale']
    }
    Webhook_reviewCreated: {
      /** @constant */
      type: 'review.created'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookReview']
    }
    WebhookReview: {
      id: string
      saleId: string
      listing: {
        id: string
        title: string
        slug: string
      }
      stars: number
      body: string
      /** Format: date-time */
      createdAt: string
    }
    Webhook_payoutSent: {
      /** @constant */
      type: 'payout.sent'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookPayout']
    }
    WebhookPayout: {
      batchId: string
      /** @description Your share of the sales paid, in total */
      amountCents: number
      currency: string
      bankReference: string
      /** Format: date-time */
      paidAt: string
      sales: {
        saleId: string
        listingTitle: string
        sellerShareCents: number
      }[]
    }
    Webhook_webhookTest: {
      /** @constant */
      type: 'webhook.test'
      /**
       * Format: date-time
       * @description When the event happened
       */
      timestamp: string
      data: components['schemas']['WebhookTest']
    }
    /** @description Sent by "Send test event"; no subscription needed */
    WebhookTest: {
      endpointId: string
      message: string
    }
    Error: {
      error: string
      /** @description The one input that is wrong. */
      field?: string
      /** @description Every wrong input with its messages. */
      fields?: {
        [key: string]: string[]
      }
      /** @description The scope the API key lacks (403). */
      scope?: string
      /** @description The listing that was saved hidden when connecting its repository failed. */
      listingId?: string
      /** @description Each image refused, and why. */
      rejected?: {
        name: string
        error: string
      }[]
      /** @description The payment already being processed (409). */
      paymentIntentId?: string
    }
    User: {
      id: string
      username: string
      displayName: string
      email: string
      isAdmin: boolean
      avatarUrl: string | null
      bio: string | null
    }
    ListingSummary: {
      id: string
      slug: string
      title: string
      shortDescription: string
      /** @enum {string} */
      type: 'template' | 'full_site'
      /** @enum {string} */
      licence: 'personal' | 'commercial' | 'unlimited'
      priceCents: number
      currency: string
      languages: string[]
      frameworks: string[]
      dependencies: string[]
      tags: string[]
      thumbnailUrl: string | null
      setupCallAvailable: boolean
      setupCallDetails: string | null
      emailSupportAvailable: boolean
      bespokeDevelopmentAvailable: boolean
      bespokeDevelopmentRateCents: number | null
      additionalNotes: string | null
      /** Format: date-time */
      createdAt: string
      /** Format: date-time */
      updatedAt: string
      sellerId: string
      techStack: {
        languages: string[]
        frameworks: string[]
        dependencies: string[]
      }
      support: {
        setupCallAvailable: boolean
        setupCallDetails: string | null
        emailSupportAvailable: boolean
        emailSupportDuration: string | null
        deliveryTimeframe: string | null
        bespokeDevelopmentAvailable: boolean
        /** @description Dollars per hour (the flat field carries cents). */
        bespokeDevelopmentRate: number | null
        additionalNotes: string | null
      }
      emailSupportDuration: string | null
      deliveryTimeframe: string | null
      seller: {
        username: string
        displayName: string
        avatarUrl: string | null
      }
      rating: {
        /** @description To a tenth of a star; null without reviews. */
        average: number | null
        count: number
      }
    }
    Listing: {
      id: string
      slug: string
      title: string
      shortDescription: string
      longDescription: string
      /** @enum {string} */
      type: 'template' | 'full_site'
      /** @enum {string} */
      licence: 'personal' | 'commercial' | 'unlimited'
      priceCents: number
      currency: string
      languages: string[]
      frameworks: string[]
      dependencies: string[]
      tags: string[]
      screenshots: string[]
      thumbnailUrl: string | null
      demoUrl: string | null
      setupCallAvailable: boolean
      setupCallDetails: string | null
      emailSupportAvailable: boolean
      emailSupportDuration: string | null
      bespokeDevelopmentAvailable: boolean
      bespokeDevelopmentRateCents: number | null
      deliveryTimeframe: string | null
      additionalNotes: string | null
      visible: boolean
      archivedAt: string | null
      /** Format: date-time */
      createdAt: string
      /** Format: date-time */
      updatedAt: string
      sellerId: string
      seller: {
        id: string
        username: string
        displayName: string
        avatarUrl: string | null
        bio: string | null
      }
      techStack: {
        languages: string[]
        frameworks: string[]
        dependencies: string[]
      }
      support: {
        setupCallAvailable: boolean
        setupCallDetails: string | null
        emailSupportAvailable: boolean
        emailSupportDuration: string | null
        deliveryTimeframe: string | null
        bespokeDevelopmentAvailable: boolean
        /** @description Dollars per hour (the flat field carries cents). */
        bespokeDevelopmentRate: number | null
        additionalNotes: string | null
      }
    }
    Review: {
      id: string
      stars: number
      body: string
      /** Format: date-time */
      createdAt: string
      /** @constant */
      verifiedPurchase: true
      author: {
        displayName: string
        username: string
        avatarUrl: string | null
      }
      sellerReply: {
        body: string
        /** Format: date-time */
        createdAt: string
      } | null
    }
    SellerTransaction: {
      id: string
      /** Format: date-time */
      createdAt: string
      amountCents: number
      applicationFeeCents: number
      sellerShareCents: number
      /** @enum {string} */
      status: 'pending_payment' | 'paid' | 'delivering' | 'delivered' | 'completed' | 'disputed' | 'refunded' | 'failed' | 'held'
      deliveredAt: string | null
      completedAt: string | null
      disputeReason: string | null
      deliveryProof: components['schemas']['DeliveryProof'] | null
      paidAt: string | null
      paymentReference: string | null
      listing: {
        id: string
        title: string
        slug: string
      }
      buyer: {
        username: string
        displayName: string
        avatarUrl: string | null
      }
    }
    DeliveryProof: {
      forkUrl: string
      github?: {
        repository: string
        repositoryId: number
        repositoryUrl: string
        buyerGithubId: number
        buyerLogin: string
        /** Format: date-time */
        invitedAt: string
        /** Format: date-time */
        acceptedAt: string
        headSha: string
        headShaDate: string | null
        listedSha: string | null
        /** @enum {string} */
        confirmedBy: 'webhook' | 'poll'
        forkUrl: string | null
      }
    }
    Sale: {
      id: string
      listingId: string
      buyerId: string
      sellerId: string
      /** @enum {string} */
      status: 'pending_payment' | 'paid' | 'delivering' | 'delivered' | 'completed' | 'disputed' | 'refunded' | 'failed' | 'held'
      amountCents: number
      applicationFeeCents: number
      deliveryProof: components['schemas']['DeliveryProof'] | null
      deliveredAt: string | null
      windowEndsAt: string | null
      completedAt: string | null
      disputedAt: string | null
      disputeReason: string | null
      refundRequestedAt: string | null
      refundedAt: string | null
      /** Format: date-time */
      createdAt: string
      /** Format: date-time */
      updatedAt: string
    }
    PayoutStatement: {
      batchId: string
      /**
       * Format: date-time
       * @description When the transfer was recorded as sent.
       */
      paidAt: string
      bankReference: string
      /** @enum {string} */
      status: 'sent' | 'reconciled'
      amountCents: number
      feeCents: number
      payoutCents: number
      lines: components['schemas']['PayoutLine'][]
    }
    PayoutLine: {
      transactionId: string
      listingTitle: string
      completedAt: string | null
      amountCents: number
      applicationFeeCents: number
      sellerShareCents: number
    }
    SellerAnalytics: {
      days: {
        /**
         * Format: date
         * @description UTC day
         */
        day: string
        views: number
        sales: number
        /** @description The seller's share of that day's sales. */
        revenueCents: number
      }[]
      totals: {
        views: number
        sales: number
        revenueCents: number
        /** @description Sales ÷ views in percent, one decimal; null without views. */
        conversionPercent: number | null
      }
      /** @description The seller's share: in escrow, due (completed, not paid out), paid out. */
      balance: {
        heldCents: number
        dueCents: number
        paidCents: number
      }
    }
    Purchase: {
      id: string
      /** Format: date-time */
      createdAt: string
      amountCents: number
      /** @enum {string} */
      status: 'pending_payment' | 'paid' | 'delivering' | 'delivered' | 'completed' | 'disputed' | 'refunded' | 'failed' | 'held'
      listing: {
        id: string
        title: string
        slug: string
      }
      seller: {
        username: string
      }
      /** @description Only while the buyer has access (a refund ends it). */
      deliveryProof: {
        forkUrl: string
      } | null
      deliveredAt: string | null
      /** @description When the dispute window ends, for a delivered sale. */
      windowEndsAt: string | null
      disputeReason: string | null
      /** @description Delivery through GitHub: the invitation while delivering, then the repository and the fork. */
      github: {
        /** @enum {string} */
        state: 'queued' | 'invited' | 'accepted' | 'revoked' | 'failed'
        invitationUrl: string | null
        repositoryUrl: string
        forkUrl: string | null
        resent: boolean
        waitingOn: ('buyer_github' | 'invitation_limit' | 'rate_limit' | 'github_error') | null
        nextAttemptAt: string | null
        message: string
      } | null
    }
    Message: {
      id: string
      body: string
      /** Format: date-time */
      createdAt: string
      author: {
        /** @enum {string} */
        role: 'buyer' | 'seller'
        username: string
        displayName: string
      }
      mine: boolean
    }
    MaskedBankDetails: {
      /** @enum {string} */
      country: 'GB' | 'US' | 'FR' | 'DE' | 'ES' | 'IT' | 'NL' | 'BE' | 'OTHER'
      accountHolder: string
      bankName: string
      sortCode: string | null
      routingNumber: string | null
      swift: string | null
      /** @enum {string} */
      status: 'pending' | 'approved' | 'rejected'
      approved: boolean
      approvedAt: string | null
      rejectedAt: string | null
      rejectionReason: string | null
      /** Format: date-time */
      requestedAt: string
      /** @description What an admin's approve or reject names (bumped by every change). */
      version: number
      /** @description A change of approved details: two different admins approve it. */
      needsTwoApprovals: boolean
      firstApprovedAt: string | null
      accountNumber: string | null
      iban: string | null
    }
    AdminTransaction: {
      id: string
      /** Format: date-time */
      createdAt: string
      sellerEmail: string
      amountCents: number
      applicationFeeCents: number
      paidAt: string | null
      paymentReference: string | null
      /** @enum {string} */
      status: 'pending_payment' | 'paid' | 'delivering' | 'delivered' | 'completed' | 'disputed' | 'refunded' | 'failed' | 'held'
    }
    PendingBankDetails: {
      /** @description The seller's user id. */
      id: string
      email: string
      bankDetails: {
        /** @enum {string} */
        country: 'GB' | 'US' | 'FR' | 'DE' | 'ES' | 'IT' | 'NL' | 'BE' | 'OTHER'
        accountHolder: string
        bankName: string
        sortCode: string | null
        routingNumber: string | null
        swift: string | null
        /** @enum {string} */
        status: 'pending' | 'approved' | 'rejected'
        approved: boolean
        approvedAt: string | null
        rejectedAt: string | null
        rejectionReason: string | null
        /** Format: date-time */
        requestedAt: string
        /** @description What an admin's approve or reject names (bumped by every change). */
        version: number
        /** @description A change of approved details: two different admins approve it. */
        needsTwoApprovals: boolean
        firstApprovedAt: string | null
        accountNumber: string | null
        iban: string | null
        firstApprovedBy: string | null
      }
      sharedAccountWith: string[]
    }
    PayoutBatchView: {
      id: string
      /** @enum {string} */
      kind: 'batch' | 'single'
      /** @enum {string} */
      status: 'draft' | 'approved' | 'exported' | 'sent' | 'reconciled' | 'cancelled'
      currency: string
      totalCents: number
      /** Format: date-time */
      preparedAt: string
      preparedBy: string
      approvedAt: string | null
      exportedAt: string | null
      sentAt: string | null
      bankReference: string | null
      reconciledAt: string | null
      cancelledAt: string | null
      cancelReason: string | null
      xmlSha256: string | null
      csvSha256: string | null
      preparedByEmail: string
      approvedByEmail: string | null
      payees: {
        position: number
        endToEndId: string
        sellerId: string
        sellerEmail: string
        amountCents: number
        country: string
        accountHolder: string
        bankName: string
        /** @description Masked to its last four characters. */
        account: string
        /** @description Other sellers whose approved details name this account. */
        sharedAccountWith: string[]
        lines: components['schemas']['PayoutLine'][]
      }[]
    }
    PayoutDue: {
      sellerId: string
      sellerEmail: string
      sales: number
      amountCents: number
      /** @description Why the seller cannot be in a batch now; null when they can. */
      blocker: string | null
    }
    PayoutBatch: {
      id: string
      /** @enum {string} */
      kind: 'batch' | 'single'
      /** @enum {string} */
      status: 'draft' | 'approved' | 'exported' | 'sent' | 'reconciled' | 'cancelled'
      currency: string
      totalCents: number
      /** Format: date-time */
      preparedAt: string
      preparedBy: string
      approvedAt: string | null
      exportedAt: string | null
      sentAt: string | null
      bankReference: string | null
      reconciledAt: string | null
      cancelledAt: string | null
      cancelReason: string | null
      xmlSha256: string | null
      csvSha256: string | null
      approvedBy: string | null
      exportedBy: string | null
      sentBy: string | null
      reconciledBy: string | null
      cancelledBy: string | null
      /** @description The platform's paying account, fixed at export. */
      debtorName: string | null
      debtorIban: string | null
      debtorBic: string | null
      /** Format: date-time */
      createdAt: string
      /** Format: date-time */
      updatedAt: string
    }
    AuditLogEntry: {
      id: string
      /** Format: date-time */
      createdAt: string
      actorId: string | null
      actorEmail: string | null
      /** @enum {string} */
      actorRole: 'buyer' | 'seller' | 'admin' | 'system' | 'provider' | 'user'
      action: string
      entityType: string
      entityId: string
      fromState: string | null
      toState: string | null
      reason: string | null
    }
  }
  responses: never
  parameters: never
  requestBodies: never
  headers: never
  pathItems: never
}
export type $defs = Record<string, never>
export interface operations {
  getApiOpenapiJson: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @constant */
            openapi: '3.1.0'
            info: {
              [key: string]: unknown
            }
            paths: {
              [key: string]: unknown
            }
          } & {
            [key: string]: unknown
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiUsersSync: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['User']
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiListings: {
    parameters: {
      query?: {
        search?: string
        type?: string
        licence?: string
        minPrice?: string
        maxPrice?: string
        languages?: string
        frameworks?: string
        dependencies?: string
        hasSetupCall?: string
        hasEmailSupport?: string
        hasBespokeDev?: string
        minRating?: string
        sortBy?: string
        cursor?: string
        limit?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            listings: components['schemas']['ListingSummary'][]
            pagination: {
              limit: number
              hasNextPage: boolean
              hasPreviousPage: boolean
              nextCursor: string | null
              previousCursor: string | null
            }
            correctedSearch: string | null
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiListings: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown
        }
      }
    }
    responses: {
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Listing']
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Only application/json is accepted */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description An Idempotency-Key reused with a different body, or a rule the input breaks */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description An outside service (the payment provider or GitHub) failed; try again */
      502: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiListingsUploadImages: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            images: string[]
            rejected: {
              name: string
              error: string
            }[]
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiListingsIdId: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Listing']
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiListingsSlugOrId: {
    parameters: {
      query?: never
      header?: never
      path: {
        slugOrId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Listing']
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  deleteApiListingsSlugOrId: {
    parameters: {
      query?: never
      header?: never
      path: {
        slugOrId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            archived: boolean
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  patchApiListingsSlugOrId: {
    parameters: {
      query?: never
      header?: never
      path: {
        slugOrId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Listing']
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Only application/json is accepted */
      415: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiListingsIdPurchase: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json':
            | {
                clientSecret: string
              }
            | {
                /** @constant */
                requiresOnboarding: true
              }
            | {
                /** @constant */
                requiresGithub: true
                connectUrl: string
              }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description An outside service (the payment provider or GitHub) failed; try again */
      502: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiListingsIdReviews: {
    parameters: {
      query?: {
        cursor?: string
        limit?: string
      }
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            rating: {
              average: number | null
              count: number
            }
            reviews: components['schemas']['Review'][]
            pagination: {
              limit: number
              hasNextPage: boolean
              nextCursor: string | null
            }
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiListingsIdViews: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            counted: boolean
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiSellerListings: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Listing'][]
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiSellerTransactions: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['SellerTransaction'][]
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiSellerTransactionsIdDeliver: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          forkUrl: string
        }
        'application/x-www-form-urlencoded': {
          forkUrl: string
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transaction: components['schemas']['Sale']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiSellerPayouts: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            statements: components['schemas']['PayoutStatement'][]
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiSellerPayoutsBatchIdStatementCsv: {
    parameters: {
      query?: never
      header?: never
      path: {
        batchId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description The sales the payout paid, their amounts and fees */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/csv': string
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiSellerAnalytics: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            analytics: components['schemas']['SellerAnalytics']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiPurchases: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Purchase'][]
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiPurchasesIdConfirm: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transaction: components['schemas']['Sale']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiPurchasesIdDispute: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          reason: string
        }
        'application/x-www-form-urlencoded': {
          reason: string
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transaction: components['schemas']['Sale']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiTransactionsIdMessages: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transactionId: string
            /** @enum {string} */
            status: 'pending_payment' | 'paid' | 'delivering' | 'delivered' | 'completed' | 'disputed' | 'refunded' | 'failed' | 'held'
            /** @enum {string} */
            viewer: 'buyer' | 'seller' | 'admin'
            canPost: boolean
            adminCanRead: boolean
            messages: components['schemas']['Message'][]
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiTransactionsIdMessages: {
    parameters: {
      query?: never
      header?: never
      path: {
        id: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          body: string
        }
        'application/x-www-form-urlencoded': {
          body: string
        }
      }
    }
    responses: {
      /** @description Created */
      201: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: {
              id: string
              body: string
              /** Format: date-time */
              createdAt: string
              /** @constant */
              mine: true
            }
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description An Idempotency-Key reused with a different body, or a rule the input breaks */
      422: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiProfileBankDetails: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            bankDetails: components['schemas']['MaskedBankDetails'] | null
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiProfileBankDetails: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown
        }
        'application/x-www-form-urlencoded': {
          [key: string]: unknown
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            bankDetails: components['schemas']['MaskedBankDetails']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminTransactions: {
    parameters: {
      query?: {
        status?: string
      }
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['AdminTransaction'][]
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminTransactionsTransactionIdMarkPaid: {
    parameters: {
      query?: never
      header?: never
      path: {
        transactionId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          paymentReference: string
        }
        'application/x-www-form-urlencoded': {
          paymentReference: string
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            batch: {
              id: string
              kind: string
              status: string
              totalCents: number
              bankReference: string | null
              transactionId: string
            }
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminTransactionsTransactionIdRelease: {
    parameters: {
      query?: never
      header?: never
      path: {
        transactionId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          reason?: string
        }
        'application/x-www-form-urlencoded': {
          reason?: string
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transaction: components['schemas']['Sale']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminTransactionsTransactionIdRefund: {
    parameters: {
      query?: never
      header?: never
      path: {
        transactionId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          reason: string
        }
        'application/x-www-form-urlencoded': {
          reason: string
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transaction: components['schemas']['Sale']
          }
        }
      }
      /** @description Accepted: the change completes when the payment provider confirms it */
      202: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            transaction: components['schemas']['Sale']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description An outside service (the payment provider or GitHub) failed; try again */
      502: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminBankDetailsPending: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['PendingBankDetails'][]
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminBankDetailsUserIdApprove: {
    parameters: {
      query?: never
      header?: never
      path: {
        userId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          version: number
        }
        'application/x-www-form-urlencoded': {
          version: number
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            bankDetails: components['schemas']['MaskedBankDetails']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminBankDetailsUserIdReject: {
    parameters: {
      query?: never
      header?: never
      path: {
        userId: string
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          reason: string
          version: number
        }
        'application/x-www-form-urlencoded': {
          reason: string
          version: number
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            bankDetails: components['schemas']['MaskedBankDetails']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminPayoutsCsv: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One row per payout due */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/csv': string
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminPayoutBatches: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            batches: components['schemas']['PayoutBatchView'][]
            due: components['schemas']['PayoutDue'][]
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminPayoutBatches: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          sellerIds?: string[]
        }
        'application/x-www-form-urlencoded': {
          sellerIds?: string[]
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            batch: components['schemas']['PayoutBatch']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminPayoutBatchesBatchId: {
    parameters: {
      query?: never
      header?: never
      path: {
        batchId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            batch: components['schemas']['PayoutBatchView']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminPayoutBatchesBatchIdFilesFormat: {
    parameters: {
      query?: never
      header?: never
      path: {
        batchId: string
        format: 'pain.001.xml' | 'bank.csv'
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description pain.001.xml: the ISO 20022 credit transfer file; bank.csv: CSV */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/xml': string
          'text/csv': string
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiAdminPayoutBatchesBatchIdAction: {
    parameters: {
      query?: never
      header?: never
      path: {
        batchId: string
        action: 'approve' | 'export' | 'sent' | 'reconcile' | 'cancel'
      }
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': {
          bankReference?: string
          reason?: string
        }
        'application/x-www-form-urlencoded': {
          bankReference?: string
          reason?: string
        }
      }
    }
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            message: string
            batch: components['schemas']['PayoutBatch']
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Wrong state for this action */
      409: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminAuditLog: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['AuditLogEntry'][]
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  getApiAdminReconciliationsRunIdExceptionsCsv: {
    parameters: {
      query?: never
      header?: never
      path: {
        runId: string
      }
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description One row per difference, or one saying the run was clean */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'text/csv': string
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not found */
      404: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiStripeWebhook: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @constant */
            received: true
            /** @enum {string} */
            result: 'processed' | 'duplicate' | 'ignored'
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Could not process it (the sender should deliver it again) */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  postApiGithubWebhook: {
    parameters: {
      query?: never
      header?: never
      path?: never
      cookie?: never
    }
    requestBody?: never
    responses: {
      /** @description OK */
      200: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': {
            /** @constant */
            received: true
            /** @enum {string} */
            result: 'processed' | 'duplicate' | 'ignored'
          }
        }
      }
      /** @description Bad input: `{ error, field? }` (or `fields` naming every wrong field) */
      400: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not signed in, or an API key that is unknown, revoked or expired */
      401: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Not allowed (a write from another origin, or an API key this endpoint or method does not take or whose scopes lack it) */
      403: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The body is over the endpoint's limit */
      413: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Rate limited, per client or per API key (see Retry-After) */
      429: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description Could not process it (the sender should deliver it again) */
      500: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
      /** @description The database is unreachable (see Retry-After) */
      503: {
        headers: {
          [name: string]: unknown
        }
        content: {
          'application/json': components['schemas']['Error']
        }
      }
    }
  }
  webhookSalePaid: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_salePaid']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookSaleDelivered: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_saleDelivered']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookSaleCompleted: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_saleCompleted']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookSaleDisputed: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_saleDisputed']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookSaleRefunded: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_saleRefunded']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookReviewCreated: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_reviewCreated']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookPayoutSent: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_payoutSent']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
  webhookWebhookTest: {
    parameters: {
      query?: never
      header: {
        /** @description The message id (`msg_…`): the same on every attempt and on Resend, so process each id once */
        'webhook-id': string
        /** @description Seconds since the epoch when this attempt was signed; refuse old ones (replays) */
        'webhook-timestamp': string
        /** @description `v1,<base64 HMAC-SHA256 of id.timestamp.body>` with your endpoint's whsec_ secret; during the 24 h after a rotation, one per secret, space-separated */
        'webhook-signature': string
      }
      path?: never
      cookie?: never
    }
    requestBody: {
      content: {
        'application/json': components['schemas']['Webhook_webhookTest']
      }
    }
    responses: {
      /** @description Received. Any other answer, a timeout (10 s) or a redirect is retried, up to 10 attempts over about 3 days */
      '2XX': {
        headers: {
          [name: string]: unknown
        }
        content?: never
      }
    }
  }
}
