/**
 * The protocol members with a vocabulary (vocabulary.ts) as normalisers: a value in another
 * spelling of the same fact (`Autocommit`, `"2"`, `Suppress Go Ahead`, `RFB 003.008`, `RSA`) is
 * rewritten to the canonical one; a value the vocabulary does not know is kept. Their canonical
 * text is recognised by a capture checked against the vocabulary (they sit in the optional
 * regions of object.ts, which documents without protocol objects never look at).
 */
import type { Field } from './field.js'
import { texts } from './lists.js'
import { checked, list, literal, STRING } from './pattern.js'
import { text } from './values.js'
import { mysqlStatus, rfbVersion, sshKeyType, telnetOptions, vncSecurityTypeText } from './vocabulary.js'

/** A string member whose canonical spelling `spell` gives. */
function spelledText(spell: (value: string) => string): Field<string> {
  const canonical = (value: unknown): boolean => typeof value === 'string' && spell(value) === value
  return {
    empty: () => '',
    fix(value, pointer, ctx) {
      const t = text.fix(value, pointer, ctx)
      return typeof value === 'string' ? spell(t) : t
    },
    canonical,
    pattern: checked(STRING, (t) => t === undefined || canonical(JSON.parse(t))),
  }
}

/** A list member whose canonical items `spell` gives (in order; `spell` may also drop duplicates). */
function spelledTexts(spell: (values: readonly string[]) => string[]): Field<string[]> {
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i])
  const canonical = (value: unknown): boolean =>
    Array.isArray(value) && value.every((v) => typeof v === 'string') && same(spell(value as string[]), value as string[])
  return {
    empty: () => [],
    fix(value, pointer, ctx) {
      const items = texts.fix(value, pointer, ctx)
      return Array.isArray(value) ? spell(items) : items
    },
    canonical,
    pattern: checked(list(literal(STRING)), (t) => t === undefined || canonical(JSON.parse(t))),
  }
}

/** `mysql.server_status`: the flag names of the protocol, in bit order (`SERVER_STATUS_AUTOCOMMIT`). */
export const mysqlServerStatus = spelledText((v) => mysqlStatus(v) ?? v)

/** `telnet.options`: RFC names, each once (`SUPPRESS-GO-AHEAD`). */
export const telnetOptionNames = spelledTexts(telnetOptions)

/** `vnc.security_types`: `<name> (<number>)` (`VNC Authentication (2)`). */
export const vncSecurityTypes = spelledTexts((values) => values.map(vncSecurityTypeText))

/** `vnc.version`: `major.minor` (`3.8`). */
export const vncVersion = spelledText(rfbVersion)

/** `ssh.key_type`: the wire name (`ssh-ed25519`). */
export const sshKeyTypeName = spelledText((v) => sshKeyType(v))
