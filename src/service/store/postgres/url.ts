/** PostgreSQL URLs: recognising them, and showing them without their password (no driver loaded). */

/** True for a `postgres://` or `postgresql://` URL. */
export const isPostgresUrl = (text: string) => /^postgres(ql)?:\/\//i.test(text)

/** The URL with its password replaced by `***`, for messages; text that is not a URL is not echoed. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url)
    if (u.password !== '') u.password = '***'
    return u.toString()
  } catch {
    return '(a malformed URL)'
  }
}
