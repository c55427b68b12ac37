/** A toast as the server flashes it (a cookie) and the page shows it (`Toaster`). */
export type ToastMessage = {
  id: string
  type: 'success' | 'error' | 'info'
  title: string
  description?: string
}
