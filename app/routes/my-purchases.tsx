import { redirect } from 'react-router'

// The footer links to /my-purchases; the screen lives at /purchases.
export function loader() {
  return redirect('/purchases', 301)
}
