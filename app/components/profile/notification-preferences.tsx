import { Form } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { NOTIFICATION_PREFERENCES, OPTIONAL_NOTIFICATIONS, timeZones, type NotificationPreference } from '~/lib/notifications'

export const NOTIFICATION_SETTINGS_INTENT = 'notification-settings'

/**
 * /profile's "Notifications" section (issue 17): the optional mails (reminders,
 * updates to things bought — issue 30 —, digests) can be turned off; receipts, delivery, dispute and money mails
 * cannot. The time zone is the one mails show times in.
 */
export function NotificationPreferences({
  settings,
  error,
}: {
  settings: Record<NotificationPreference, boolean> & { timeZone: string | null }
  error?: string
}) {
  return (
    <Card id="notifications">
      <CardHeader>
        <CardTitle asChild>
          <h2>Notifications</h2>
        </CardTitle>
        <CardDescription>
          Receipts, deliveries, disputes, refunds and payouts are always sent by e-mail and listed under the bell.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value={NOTIFICATION_SETTINGS_INTENT} />
          {NOTIFICATION_PREFERENCES.map((name) => (
            <div key={name} className="flex items-start gap-3">
              <input
                id={`notify-${name}`}
                type="checkbox"
                name={name}
                defaultChecked={settings[name]}
                className="mt-1 size-4 accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              />
              <label htmlFor={`notify-${name}`} className="grid gap-0.5 text-sm">
                <span className="font-medium">{OPTIONAL_NOTIFICATIONS[name].label}</span>
                <span className="text-muted-foreground">{OPTIONAL_NOTIFICATIONS[name].description}</span>
              </label>
            </div>
          ))}
          <div className="grid gap-1.5">
            <label htmlFor="notify-time-zone" className="text-sm font-medium">
              Time zone for times in e-mails
            </label>
            <select
              id="notify-time-zone"
              name="timeZone"
              defaultValue={settings.timeZone ?? 'UTC'}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'notify-time-zone-error' : undefined}
              className="h-9 rounded-md border bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {timeZones().map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
            {error ? (
              <p id="notify-time-zone-error" className="text-sm text-destructive">
                {error}
              </p>
            ) : null}
          </div>
          <div>
            <Button type="submit" size="sm">
              Save notification settings
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  )
}
