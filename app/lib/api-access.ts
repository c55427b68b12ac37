/** Who may call an API operation (its `x-access` in the OpenAPI description), as /developers says it. */
const ACCESS_TEXT: Record<string, string> = {
  public: 'Anyone',
  user: 'Signed in',
  admin: 'Admins only',
}

export function accessText(access: string) {
  return ACCESS_TEXT[access] ?? access
}
