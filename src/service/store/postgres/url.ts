/** PostgreSQL URLs: recognising them, checking them, and showing them without their password (no driver loaded). */

/** True for a `postgres://` or `postgresql://` URL. */
export const isPostgresUrl = (text: string) => /^postgres(ql)?:\/\//i.test(text)

/**
 * Why a store URL cannot be used, or null: it must parse, and name its database in its path
 * (`postgres://USER@HOST:PORT/DATABASE`). Without one the driver would quietly connect to a
 * database named after the user (`postgres`), where l9kit's tables would land unnoticed.
 */
export function storeUrlProblem(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'is not a valid URL (postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)'
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''))
  if (database === '') return `names no database: add it to the path, as in ${parsed.protocol}//${parsed.username ? `${parsed.username}@` : ''}${parsed.host || 'HOST'}/DATABASE`
  if (database.includes('/')) return `names the database ${JSON.stringify(database)}, which holds a '/': the path is /DATABASE and nothing more`
  return null
}

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
