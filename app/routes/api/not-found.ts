import { data } from 'react-router'

// Unknown /api/* paths answer JSON, not the HTML 404 page.
function notFound() {
  return data({ error: 'Not found' }, { status: 404 })
}

export const loader = notFound
export const action = notFound
