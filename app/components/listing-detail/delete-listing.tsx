import { LoaderCircle, Trash2 } from 'lucide-react'
import * as React from 'react'
import { Form, Link, useNavigation } from 'react-router'
import { Button } from '~/components/ui/button'
import { Card, CardContent } from '~/components/ui/card'
import { useHydrated } from '~/components/ui/use-hydrated'

/** Spec §5: the exact confirmation text. */
export function deleteConfirmationText(title: string) {
  return `Are you sure you want to delete "${title}"? This action cannot be undone.`
}

export function DeleteSubmit() {
  const navigation = useNavigation()
  const deleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete'
  return (
    <Button type="submit" name="intent" value="delete" variant="destructive" disabled={deleting}>
      {deleting ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : null}
      Delete
    </Button>
  )
}

/**
 * Delete Listing for the owner. With JavaScript: an alert dialog. Without it
 * the button is a link to `?delete`, which shows the same question inline
 * (DeleteConfirmation) with a plain form post.
 */
export function DeleteListingButton({ title }: { title: string }) {
  const hydrated = useHydrated()
  const link = (
    <Button asChild variant="destructive" className="w-full">
      <Link to="?delete" preventScrollReset>
        <Trash2 aria-hidden="true" />
        Delete Listing
      </Link>
    </Button>
  )
  if (!hydrated) return link
  // The dialog's code is fetched only for owners (the link works meanwhile).
  return (
    <React.Suspense fallback={link}>
      <DeleteListingDialog title={title} />
    </React.Suspense>
  )
}

const DeleteListingDialog = React.lazy(() => import('./delete-listing-dialog'))

/** The no-JavaScript confirmation step (`?delete`). */
export function DeleteConfirmation({ title, cancelTo }: { title: string; cancelTo: string }) {
  return (
    <Card role="alertdialog" aria-labelledby="delete-confirm-title" aria-describedby="delete-confirm-text" className="border-destructive">
      <CardContent className="grid gap-4">
        <h2 id="delete-confirm-title" className="text-lg font-semibold">
          Delete Listing
        </h2>
        <p id="delete-confirm-text" className="text-sm text-muted-foreground">
          {deleteConfirmationText(title)}
        </p>
        <Form method="post" className="flex justify-end gap-2">
          <Button asChild variant="outline">
            <Link to={cancelTo}>Cancel</Link>
          </Button>
          <DeleteSubmit />
        </Form>
      </CardContent>
    </Card>
  )
}
