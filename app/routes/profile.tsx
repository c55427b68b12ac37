import { parseWithZod } from '@conform-to/zod/v4'
import { useEffect } from 'react'
import { data } from 'react-router'
import { ApiKeysSection, REVOKE_KEY_PARAM } from '~/components/profile/api-keys-section'
import { BankDetailsForm, submitLabelFor } from '~/components/profile/bank-details-form'
import { BankStatusBanner } from '~/components/profile/bank-status-banner'
import { GithubCard } from '~/components/profile/github-card'
import { NOTIFICATION_SETTINGS_INTENT, NotificationPreferences } from '~/components/profile/notification-preferences'
import { PUBLIC_PROFILE_INTENT, PublicProfileSection } from '~/components/profile/public-profile-section'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { showToast } from '~/components/ui/toaster'
import { CREATE_API_KEY_INTENT, REVOKE_API_KEY_INTENT } from '~/lib/api-keys'
import { BankDetailsSchema } from '~/lib/bank-details-schema'
import { isUuid } from '~/lib/ids'
import { isTimeZone } from '~/lib/notifications'
import { getApiKey, listApiKeys } from '~/server/domain/api-keys.server'
import { getMaskedBankDetails, saveBankDetails } from '~/server/domain/bank-details.server'
import { AppError } from '~/server/domain/errors.server'
import { getGithubAccount, GITHUB_AUTHORIZE_PATH, GITHUB_INSTALL_PATH, githubPath } from '~/server/domain/github-accounts.server'
import { sellerGithubStatus } from '~/server/domain/github-listing-sources.server'
import { getNotificationSettings, saveNotificationSettings } from '~/server/domain/notification-inbox.server'
import { getEditableProfile } from '~/server/domain/seller-profiles.server'
import { apiKeyAction } from '~/server/forms/api-key-action.server'
import { savePublicProfile } from '~/server/forms/public-profile-action.server'
import { requireUser } from '~/server/http/auth.server'
import { readFormBody } from '~/server/http/form-data.server'
import { redirectWithToast } from '~/server/http/responses.server'
import { BODY_LIMITS, RATE_LIMITS, routePolicy } from '~/server/http/route-policy.server'
import { githubEnabled } from '~/server/infra/github.server'
import { logEvent } from '~/server/infra/log.server'
import type { Route } from './+types/profile'

export const middleware = [routePolicy({ bodyLimit: BODY_LIMITS.form, rateLimit: RATE_LIMITS.bankDetails, compress: false })]

const SAVE_FAILED = 'Failed to save bank details'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const revokeKeyId = new URL(request.url).searchParams.get(REVOKE_KEY_PARAM)
  const [bankDetails, githubAccount, githubStatus, publicProfile, notificationSettings, apiKeys, revokingKey] = await Promise.all([
    getMaskedBankDetails(user.id),
    getGithubAccount(user.id),
    sellerGithubStatus(user.id),
    getEditableProfile(user.id),
    getNotificationSettings(user.id),
    listApiKeys(user.id),
    isUuid(revokeKeyId) ? getApiKey(user.id, revokeKeyId) : undefined,
  ])
  return {
    email: user.email,
    apiKeys,
    revokingKey: revokingKey ?? null,
    notificationSettings,
    publicProfile,
    bankDetails,
    github: {
      enabled: githubEnabled(),
      installUrl: githubPath(GITHUB_INSTALL_PATH, '/profile'),
      authorizeUrl: githubPath(GITHUB_AUTHORIZE_PATH, '/profile'),
      installations: githubStatus.installations,
      account: githubAccount ? { login: githubAccount.login } : null,
    },
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context)
  const form = await readFormBody(request, context)
  // Issue 18: the Public profile section.
  if (form.get('intent') === PUBLIC_PROFILE_INTENT) {
    const saved = await savePublicProfile(user.id, form)
    return saved.response ?? data(saved.body, { status: saved.status })
  }
  // Issue 29: personal API keys.
  const intent = form.get('intent')
  if (intent === CREATE_API_KEY_INTENT || intent === REVOKE_API_KEY_INTENT) {
    const answered = await apiKeyAction(user.id, form)
    return answered.response ?? data(answered.body, { status: answered.status })
  }
  // Issue 17: the optional notifications and the mails' time zone.
  if (form.get('intent') === NOTIFICATION_SETTINGS_INTENT) {
    const timeZone = String(form.get('timeZone') ?? 'UTC')
    if (!isTimeZone(timeZone) || timeZone.length > 64)
      return data({ notificationError: 'Choose a time zone from the list' }, { status: 400 })
    await saveNotificationSettings(user.id, {
      reminders: form.get('reminders') === 'on',
      updates: form.get('updates') === 'on',
      digests: form.get('digests') === 'on',
      timeZone: timeZone === 'UTC' ? null : timeZone,
    })
    return redirectWithToast('/profile', { title: 'Notification settings saved', type: 'success' })
  }
  const submission = parseWithZod(form, { schema: BankDetailsSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const { message, changed } = await saveBankDetails(user.id, submission.value)
    return redirectWithToast('/profile', {
      title: changed ? 'Bank details saved' : 'No changes',
      description: message,
      type: changed ? 'success' : 'info',
    })
  } catch (error) {
    if (error instanceof AppError) {
      return data({ result: submission.reply({ formErrors: [error.message], fieldErrors: error.fieldErrors }) }, { status: error.status })
    }
    logEvent('error', 'bank_details_save_failed', { userId: user.id, message: error instanceof Error ? error.message : String(error) })
    return data({ result: submission.reply({ formErrors: [SAVE_FAILED] }) }, { status: 500 })
  }
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { bankDetails } = loaderData
  const result = actionData && 'result' in actionData ? actionData.result : undefined

  // Spec §8: a failed save shows an 'Error' toast (the server's message, else the fallback).
  useEffect(() => {
    if (result?.status === 'error') {
      showToast({ type: 'error', title: 'Error', description: result.error?.['']?.[0] ?? SAVE_FAILED })
    }
  }, [result])

  return (
    <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Profile</h1>
        <p className="mt-1 text-sm text-muted-foreground">Signed in as {loaderData.email}</p>
      </div>
      <BankStatusBanner
        status={bankDetails?.status ?? null}
        approvedAt={bankDetails?.approvedAt}
        rejectionReason={bankDetails?.rejectionReason}
      />
      <Card id="bank-details" className="scroll-mt-20">
        <CardHeader>
          <CardTitle asChild>
            <h2>Bank Details</h2>
          </CardTitle>
          <CardDescription>
            Where we send your payouts by bank transfer. Account numbers are stored encrypted and shown masked.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <BankDetailsForm
            // A fresh form after each save, so the masked values of the new details show.
            key={bankDetails ? new Date(bankDetails.requestedAt).getTime() : 'new'}
            lastResult={result}
            defaultValue={bankDetails}
            submitLabel={submitLabelFor(bankDetails?.status ?? null)}
          />
        </CardContent>
      </Card>
      {loaderData.publicProfile ? (
        <PublicProfileSection
          profile={loaderData.publicProfile}
          lastResult={actionData && 'publicProfile' in actionData ? actionData.publicProfile : undefined}
        />
      ) : null}
      {loaderData.github.enabled ? <GithubCard {...loaderData.github} /> : null}
      <ApiKeysSection
        keys={loaderData.apiKeys}
        revoking={loaderData.revokingKey}
        lastResult={actionData && 'apiKey' in actionData ? actionData.apiKey : undefined}
        created={actionData && 'createdApiKey' in actionData ? actionData.createdApiKey : undefined}
      />
      <NotificationPreferences
        settings={loaderData.notificationSettings}
        error={actionData && 'notificationError' in actionData ? actionData.notificationError : undefined}
      />
    </div>
  )
}

export function meta({}: Route.MetaArgs) {
  return [{ title: 'Profile · Forkmarket' }]
}

// Bank details are personal: never store this page in a shared cache.
export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}
