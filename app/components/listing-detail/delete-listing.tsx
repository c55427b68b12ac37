import { LoaderCircle, Trash2 } from 'lucide-react'
import { Form, Link, useNavigation } from 'react-router'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '~/components/ui/alert-dialog'
import { Button } from '~/components/ui/button'
import { Card, CardContent } from '~/components/ui/card'
import { useHydrated } from '~/components/ui/use-hydrated'

/** Spec §5: the exact confirmation text. */
export function deleteConfirmationText(title: string) {
  return `Are you sure you want to delete "${title}"? This action cannot be undone.`
}

function DeleteSubmit() {
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
  if (!hydrated) {
    return (
      <Button asChild variant="destructive" className="w-full">
        <Link to="?delete" preventScrollReset>
          <Trash2 aria-hidden="true" />
          Delete Listing
        </Link>
      </Button>
    )
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="destructive" className="w-full">
          <Trash2 aria-hidden="true" />
          Delete Listing
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Listing</AlertDialogTitle>
          <AlertDialogDescription>{deleteConfirmationText(title)}</AlertDialogDescription>
        </AlertDialogHeader>
        <Form method="post">
          <AlertDialogFooter>
            <AlertDialogCancel type="button">Cancel</AlertDialogCancel>
            <DeleteSubmit />
          </AlertDialogFooter>
        </Form>
      </AlertDialogContent>
    </AlertDialog>
  )
}

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
