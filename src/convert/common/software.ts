/** Software names and versions from the ways tools print them. */
import type { Software } from '../../schema/index.js'

type Module = NonNullable<Software['modules']>[number]

const OS = /\b(ubuntu|debian|centos|red ?hat|rhel|fedora|alpine|amazon|freebsd|openbsd|win32|win64|windows|unix)\b/i

/**
 * An HTTP product token (`nginx/1.24.0`, `Apache/2.4.58 (Debian)`, `Microsoft-IIS/10.0`)
 * into name, version and, when the comment names one, the operating system.
 */
export function productToken(text: string): Pick<Software, 'name' | 'version' | 'os'> {
  const t = text.trim()
  const m = /^([^\s/()]+)(?:\/([^\s()]+))?\s*(?:\(([^)]*)\))?/.exec(t)
  if (!m) return { name: t, version: '', os: '' }
  return { name: m[1] ?? '', version: m[2] ?? '', os: OS.exec(m[3] ?? '')?.[0] ?? '' }
}

/** The operating system a banner comment names (`Ubuntu-3ubuntu13` → `Ubuntu`), or ''. */
export const osOf = (comment: string) => OS.exec(comment)?.[0] ?? ''

/** `OpenSSH_9.6p1` → OpenSSH 9.6p1; `dropbear_2022.83` → dropbear 2022.83. */
export function sshSoftware(text: string): { name: string; version: string } {
  const m = /^([^_\s]+)(?:_(\S+))?/.exec(text.trim())
  return { name: m?.[1] ?? '', version: m?.[2] ?? '' }
}

/** A technology as httpx prints it (`Nginx:1.24.0`, `HSTS`, `Google Font API`) as a module. */
export function techModule(text: string): Module {
  const t = text.trim()
  const colon = t.lastIndexOf(':')
  if (colon > 0 && /^\d/.test(t.slice(colon + 1))) return { name: t.slice(0, colon), version: t.slice(colon + 1), fingerprint: '' }
  return { name: t, version: '', fingerprint: '' }
}
