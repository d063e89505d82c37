/**
 * The protocol objects and the `ssh` extension as normalisers (src/schema/protocols.ts): every
 * member optional, so an absent or `null` member stays absent and a present one is kept in the
 * facts' order; booleans also read yes/no answers written as text or as 0 and 1, integers also
 * read numeric strings. Nothing here is ever filled in: an absent object stays absent.
 */
import { BOOLEAN_STRING } from '../schema/patterns.js'
import { show } from './context.js'
import { type Field, optional } from './field.js'
import { texts } from './lists.js'
import { type Members, objectField } from './object.js'
import { literal } from './pattern.js'
import { int, text } from './values.js'
import { mysqlServerStatus, sshKeyTypeName, telnetOptionNames, vncSecurityTypes, vncVersion } from './vocabulary-fields.js'

const BOOLEAN_STRING_RE = new RegExp(BOOLEAN_STRING)
const TRUE = new Set(['true', 'yes', '1'])

/** The boolean a yes/no text stands for (BOOLEAN_STRING), or undefined. */
function yesNo(value: string): boolean | undefined {
  return BOOLEAN_STRING_RE.test(value) ? TRUE.has(value.toLowerCase()) : undefined
}

/**
 * A boolean; `"yes"`/`"true"`/`"1"`/`1` read as true and `"no"`/`"false"`/`"0"`/`0` as false
 * (lower case, capitalised or upper case).
 */
export const answer: Field<boolean> = {
  empty: () => false,
  fix(value, pointer, ctx) {
    if (typeof value === 'boolean') return value
    if (value === 0 || value === 1) return value === 1
    if (typeof value === 'string') {
      const read = yesNo(value)
      if (read !== undefined) return read
      ctx.error('wrong_type', pointer, `${show(value)} is not a boolean, or yes/no, true/false, 1/0 as text`, {
        expected: 'a boolean, or yes/no, true/false, 1/0 as text',
        found: value,
      })
      return false
    }
    if (Number.isInteger(value)) {
      ctx.error('out_of_range', pointer, `${show(value)} is out of range: must be 0 or 1 (or a boolean)`, { expected: '0–1', found: value })
      return false
    }
    ctx.wrongType(pointer, 'boolean', value)
    return false
  },
  canonical: (value) => typeof value === 'boolean',
  pattern: literal('(?:true|false)'),
}

// Their canonical text is recognised in an optional region of its own (object.ts); their
// lenient spellings are not rewritten in place: a yes/no text, a number as a string or a `null`
// in a protocol object takes the long way (parse, normalise, write), which gives the same bytes.
const str = optional(text)
const strs = optional({ ...texts, lenient: undefined }) // `null` means absent here, not `[]`
const bool = optional(answer)
const num = optional({ ...int(), lenient: undefined })
// Members with one spelling per fact (vocabulary.ts): other spellings are rewritten.
const vocab = <T>(field: Field<T>): Field<T> => optional(field)

/** The members that extend `ssh`, after its four. */
export const SSH_EXTENSION_MEMBERS: Members = [
  ['key_type', vocab(sshKeyTypeName)],
  ['key', str],
  ['kex_algorithms', strs],
  ['host_key_algorithms', strs],
  ['encryption_algorithms', strs],
  ['mac_algorithms', strs],
  ['compression_algorithms', strs],
  ['auth_methods', strs],
]

const protocol = (members: Members): Field => optional(objectField(members))

/** The protocol objects, in canonical order (after `network`). */
export const PROTOCOL_MEMBERS: Members = [
  ['vnc', protocol([['version', vocab(vncVersion)], ['security_types', vocab(vncSecurityTypes)], ['noauth', bool]])],
  ['ftp', protocol([['banner', str], ['tls_supported', bool], ['anonymous', bool]])],
  ['smtp', protocol([['banner', str], ['starttls', bool], ['extensions', strs]])],
  ['telnet', protocol([['banner', str], ['options', vocab(telnetOptionNames)], ['auth_required', bool]])],
  ['redis', protocol([['version', str], ['mode', str], ['os', str], ['auth_required', bool]])],
  ['mysql', protocol([['version', str], ['protocol_version', num], ['auth_plugin', str], ['server_status', vocab(mysqlServerStatus)]])],
  [
    'postgresql',
    protocol([
      ['version', str],
      ['databases', strs],
      ['ssl_enabled', bool],
      ['auth_method', str],
      ['server_encoding', str],
      ['client_encoding', str],
      ['timezone', str],
      ['max_connections', num],
    ]),
  ],
  ['mongodb', protocol([['version', str], ['databases', strs], ['auth_required', bool], ['wire_version', num]])],
  [
    'memcached',
    protocol([
      ['version', str],
      ['libevent', str],
      ['curr_items', num],
      ['total_items', num],
      ['bytes', num],
      ['max_bytes', num],
      ['cmd_get', num],
      ['cmd_set', num],
      ['get_hits', num],
      ['get_misses', num],
      ['threads', num],
    ]),
  ],
  ['amqp', protocol([['protocol_major', num], ['protocol_minor', num], ['product', str], ['version', str], ['platform', str]])],
  [
    'ldap',
    protocol([
      ['naming_contexts', strs],
      ['supported_versions', strs],
      ['vendor_name', str],
      ['vendor_version', str],
      ['supported_sasl', strs],
      ['anonymous_bind', bool],
      ['can_enumerate', bool],
    ]),
  ],
  ['sip', protocol([['version', str], ['user_agent', str], ['server', str], ['allow', strs], ['supported', strs]])],
  ['rdp', protocol([['product_version', str], ['nla_required', bool], ['ssl_enabled', bool], ['hostname', str]])],
  ['dns', protocol([['software', str], ['version', str], ['recursion', bool], ['dnssec', bool], ['zone_transfer', bool], ['nameservers', strs]])],
  ['rtsp', protocol([['server', str], ['methods', strs]])],
]
