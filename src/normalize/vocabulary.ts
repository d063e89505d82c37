/**
 * One spelling per value of the protocol members that sources spell differently (docs/format.md,
 * "Vocabulary"): MySQL status flags by the protocol's flag names, Telnet options by their RFC
 * names, VNC security types by name and number, the RFB version as `major.minor`, SSH host key
 * types by their wire names. Every converter writes these spellings, and normalize() rewrites a
 * lenient document's other spellings to them (vocabulary-fields.ts). Plain data and functions:
 * no dependency, so the converters load it cheaply.
 *
 * A value none of the tables knows is kept as it is written: a spelling is only ever replaced by
 * the same fact's canonical spelling, never guessed.
 */

/** MySQL server status flags (mysql_com.h, the names MySQL's own protocol documentation uses), by bit value. */
export const MYSQL_STATUS_FLAGS: readonly (readonly [number, string])[] = [
  [0x0001, 'SERVER_STATUS_IN_TRANS'],
  [0x0002, 'SERVER_STATUS_AUTOCOMMIT'],
  [0x0004, 'SERVER_STATUS_MORE_RESULTS'],
  [0x0008, 'SERVER_MORE_RESULTS_EXISTS'],
  [0x0010, 'SERVER_QUERY_NO_GOOD_INDEX_USED'],
  [0x0020, 'SERVER_QUERY_NO_INDEX_USED'],
  [0x0040, 'SERVER_STATUS_CURSOR_EXISTS'],
  [0x0080, 'SERVER_STATUS_LAST_ROW_SENT'],
  [0x0100, 'SERVER_STATUS_DB_DROPPED'],
  [0x0200, 'SERVER_STATUS_NO_BACKSLASH_ESCAPES'],
  [0x0400, 'SERVER_STATUS_METADATA_CHANGED'],
  [0x0800, 'SERVER_QUERY_WAS_SLOW'],
  [0x1000, 'SERVER_PS_OUT_PARAMS'],
  [0x2000, 'SERVER_STATUS_IN_TRANS_READONLY'],
  [0x4000, 'SERVER_SESSION_STATE_CHANGED'],
]

/**
 * Other spellings of the same flags, by bit value: nmap's (`mysql.lua`: `Autocommit` as
 * mysql-info prints it, `InTransaction`, …) and variants other libraries print
 * (`SERVER_STATUS_NO_GOOD_INDEX_USED`, `SERVER_STATUS_QUERY_WAS_SLOW`, …). Compared without
 * case, `_`, `-` and blanks.
 */
const MYSQL_STATUS_ALIASES: readonly (readonly [number, string])[] = [
  [0x0001, 'InTransaction'],
  [0x0002, 'AutoCommit'],
  [0x0004, 'MoreResults'],
  [0x0008, 'MultiQuery'],
  [0x0008, 'SERVER_STATUS_MORE_RESULTS_EXISTS'],
  [0x0010, 'BadIndexUsed'],
  [0x0010, 'SERVER_STATUS_NO_GOOD_INDEX_USED'],
  [0x0020, 'NoIndexUsed'],
  [0x0020, 'SERVER_STATUS_NO_INDEX_USED'],
  [0x0040, 'CursorExists'],
  [0x0080, 'LastRowSent'],
  [0x0080, 'LastRowSebd'], // nmap's mysql.lua, as spelt there
  [0x0100, 'DatabaseDropped'],
  [0x0200, 'NoBackslashEscapes'],
  [0x0400, 'MetadataChanged'],
  [0x0800, 'SERVER_STATUS_QUERY_WAS_SLOW'],
  [0x1000, 'SERVER_STATUS_PS_OUT_PARAMS'],
  [0x4000, 'SERVER_STATUS_SESSION_STATE_CHANGED'],
]

/** A name compared loosely: lower case, without `_`, `-`, `.` and blanks. */
const loose = (name: string) => name.toLowerCase().replace(/[\s_.-]+/g, '')

const MYSQL_BITS = new Map<string, number>([...MYSQL_STATUS_FLAGS, ...MYSQL_STATUS_ALIASES].map(([bit, name]) => [loose(name), bit]))
const MYSQL_NAMES = new Map<number, string>(MYSQL_STATUS_FLAGS)

/** A status bit without a name: its value, `0x8000`. */
const bitName = (bit: number) => `0x${bit.toString(16).padStart(4, '0')}`

/** The canonical text of a set of status bits: the flag names in bit order, joined with `, `. */
export function mysqlStatusText(bits: number): string {
  const out: string[] = []
  for (let bit = 1; bit <= bits && bit <= 0x8000; bit <<= 1) if (bits & bit) out.push(MYSQL_NAMES.get(bit) ?? bitName(bit))
  return out.join(', ')
}

/**
 * A MySQL server status in the canonical spelling: from the status number (`2`, `"2"`, `0x0002`)
 * or from flag names in any of the spellings above, comma- or blank-separated. Names no table
 * knows are kept, after the known ones. Undefined when `value` is neither.
 */
export function mysqlStatus(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value <= 0xffff ? mysqlStatusText(value) : undefined
  if (typeof value !== 'string') return undefined
  let bits = 0
  const unknown: string[] = []
  for (const token of value.trim().split(/[,|\s]+/)) {
    if (token === '') continue
    // A number is status bits (`2`, `0x0002`); a name is one flag.
    const number = /^(?:\d{1,5}|0x[0-9a-f]{1,4})$/i.test(token) ? Number(token) : undefined
    const bit = number !== undefined && number <= 0xffff ? number : MYSQL_BITS.get(loose(token))
    if (bit !== undefined) bits |= bit
    else if (!unknown.includes(token)) unknown.push(token)
  }
  return [mysqlStatusText(bits), ...unknown].filter((t) => t !== '').join(', ')
}


/**
 * Telnet options by number: the name each option's RFC gives it (its "command name", as BSD's
 * `arpa/telnet.h` also spells them), else the IANA registry's name in capitals with hyphens.
 */
export const TELNET_OPTIONS: ReadonlyMap<number, string> = new Map([
  [0, 'TRANSMIT-BINARY'],
  [1, 'ECHO'],
  [2, 'RECONNECTION'],
  [3, 'SUPPRESS-GO-AHEAD'],
  [4, 'APPROX-MESSAGE-SIZE'],
  [5, 'STATUS'],
  [6, 'TIMING-MARK'],
  [7, 'RCTE'],
  [8, 'NAOL'],
  [9, 'NAOP'],
  [10, 'NAOCRD'],
  [11, 'NAOHTS'],
  [12, 'NAOHTD'],
  [13, 'NAOFFD'],
  [14, 'NAOVTS'],
  [15, 'NAOVTD'],
  [16, 'NAOLFD'],
  [17, 'EXTEND-ASCII'],
  [18, 'LOGOUT'],
  [19, 'BM'],
  [20, 'DET'],
  [21, 'SUPDUP'],
  [22, 'SUPDUP-OUTPUT'],
  [23, 'SEND-LOCATION'],
  [24, 'TERMINAL-TYPE'],
  [25, 'END-OF-RECORD'],
  [26, 'TUID'],
  [27, 'OUTMRK'],
  [28, 'TTYLOC'],
  [29, '3270-REGIME'],
  [30, 'X.3-PAD'],
  [31, 'NAWS'],
  [32, 'TERMINAL-SPEED'],
  [33, 'TOGGLE-FLOW-CONTROL'],
  [34, 'LINEMODE'],
  [35, 'X-DISPLAY-LOCATION'],
  [36, 'ENVIRON'],
  [37, 'AUTHENTICATION'],
  [38, 'ENCRYPT'],
  [39, 'NEW-ENVIRON'],
  [40, 'TN3270E'],
  [41, 'XAUTH'],
  [42, 'CHARSET'],
  [43, 'RSP'],
  [44, 'COM-PORT-OPTION'],
  [45, 'SUPPRESS-LOCAL-ECHO'],
  [46, 'START-TLS'],
  [47, 'KERMIT'],
  [48, 'SEND-URL'],
  [49, 'FORWARD-X'],
  [138, 'PRAGMA-LOGON'],
  [139, 'SSPI-LOGON'],
  [140, 'PRAGMA-HEARTBEAT'],
  [255, 'EXOPL'],
])

/**
 * Other names of the same options: the IANA registry's titles (what ZGrab2 and Shodan write:
 * `Suppress Go Ahead`, `Negotiate About Window Size`), `arpa/telnet.h`'s short names (`BINARY`,
 * `SGA`, `TTYPE`, …) and the RFCs' longer spellings. Compared without case, `_`, `-`, `.` and blanks.
 */
const TELNET_ALIASES: readonly (readonly [number, string])[] = [
  [0, 'Binary Transmission'],
  [0, 'BINARY'],
  [1, 'Echo'],
  [2, 'RCP'],
  [3, 'Suppress Go Ahead'],
  [3, 'SGA'],
  [4, 'Approx Message Size Negotiation'],
  [4, 'NAMS'],
  [5, 'Status'],
  [6, 'Timing Mark'],
  [7, 'Remote Controlled Trans and Echo'],
  [8, 'Output Line Width'],
  [9, 'Output Page Size'],
  [10, 'Output Carriage-Return Disposition'],
  [11, 'Output Horizontal Tab Stops'],
  [12, 'Output Horizontal Tab Disposition'],
  [13, 'Output Formfeed Disposition'],
  [14, 'Output Vertical Tabstops'],
  [15, 'Output Vertical Tab Disposition'],
  [16, 'Output Linefeed Disposition'],
  [17, 'Extended ASCII'],
  [17, 'XASCII'],
  [19, 'Byte Macro'],
  [20, 'Data Entry Terminal'],
  [23, 'SNDLOC'],
  [24, 'Terminal Type'],
  [24, 'TTYPE'],
  [25, 'End of Record'],
  [25, 'EOR'],
  [26, 'TACACS User Identification'],
  [27, 'Output Marking'],
  [28, 'Terminal Location Number'],
  [29, 'Telnet 3270 Regime'],
  [29, '3270REGIME'],
  [30, 'X.3 PAD'],
  [30, 'X3PAD'],
  [31, 'Negotiate About Window Size'],
  [31, 'Window Size'],
  [32, 'Terminal Speed'],
  [32, 'TSPEED'],
  [33, 'Remote Flow Control'],
  [33, 'LFLOW'],
  [34, 'Linemode'],
  [35, 'X Display Location'],
  [35, 'XDISPLOC'],
  [36, 'Environment Option'],
  [36, 'Environment Variables'],
  [36, 'OLD-ENVIRON'],
  [37, 'Authentication Option'],
  [38, 'Encryption Option'],
  [38, 'Encryption'],
  [39, 'New Environment Option'],
  [42, 'Charset'],
  [43, 'Telnet Remote Serial Port (RSP)'],
  [44, 'Com Port Control Option'],
  [44, 'Com Port Control'],
  [45, 'Telnet Suppress Local Echo'],
  [46, 'Telnet Start TLS'],
  [46, 'STARTTLS'],
  [48, 'SEND_URL'],
  [49, 'FORWARD_X'],
  [138, 'TELOPT PRAGMA LOGON'],
  [139, 'TELOPT SSPI LOGON'],
  [140, 'TELOPT PRAGMA HEARTBEAT'],
  [255, 'Extended-Options-List'],
]

const TELNET_NUMBERS = new Map<string, number>([...[...TELNET_OPTIONS].map(([n, name]) => [name, n] as const), ...TELNET_ALIASES.map(([n, name]) => [name, n] as const)].map(([name, n]) => [loose(name), n]))

/** An option's canonical name from its number (an unknown number: `OPTION-<n>`). */
export const telnetOptionName = (n: number): string => TELNET_OPTIONS.get(n) ?? `OPTION-${n}`

/** A Telnet option's canonical name from any known spelling, its number, or `OPTION-<n>`; other names as written. */
export function telnetOption(value: string | number): string {
  if (typeof value === 'number') return telnetOptionName(value)
  const text = value.trim()
  if (/^\d{1,3}$/.test(text) && Number(text) <= 255) return telnetOptionName(Number(text))
  const m = /^OPTION-(\d{1,3})$/i.exec(text)
  if (m && Number(m[1]) <= 255) return telnetOptionName(Number(m[1]))
  const n = TELNET_NUMBERS.get(loose(text))
  return n === undefined ? text : telnetOptionName(n)
}

/** Telnet options in the canonical spelling, in order, each once; empty names left out. */
export function telnetOptions(values: readonly (string | number)[]): string[] {
  const out: string[] = []
  for (const v of values) {
    const name = telnetOption(v)
    if (name !== '' && !out.includes(name)) out.push(name)
  }
  return out
}

/**
 * RFB security types by number: the names the RFB specification (RFC 6143) and the registry
 * give, as nmap's `vnc.lua` also prints them.
 */
export const VNC_SECURITY_TYPES: ReadonlyMap<number, string> = new Map([
  [0, 'Invalid'],
  [1, 'None'],
  [2, 'VNC Authentication'],
  [5, 'RA2'],
  [6, 'RA2ne'],
  [16, 'Tight'],
  [17, 'Ultra'],
  [18, 'TLS'],
  [19, 'VeNCrypt'],
  [20, 'GTK-VNC SASL'],
  [21, 'MD5 hash authentication'],
  [22, 'Colin Dean xvp'],
  [30, 'Mac OS X security type'],
  [35, 'Mac OS X security type'],
])

/** Names that belong to one number only, for a name written without its number. */
const VNC_NUMBERS = (() => {
  const counts = new Map<string, number[]>()
  for (const [n, name] of VNC_SECURITY_TYPES) counts.set(loose(name), [...(counts.get(loose(name)) ?? []), n])
  return new Map([...counts].filter(([, ns]) => ns.length === 1).map(([name, ns]) => [name, ns[0]!]))
})()

/**
 * A security type in the canonical spelling, `<name> (<number>)`: the table's name for the
 * number, else the source's name (`Unknown` when it has none). Two types of one name (30 and 35)
 * stay apart by their numbers.
 */
export function vncSecurityType(number: number, name?: string): string {
  const known = VNC_SECURITY_TYPES.get(number)
  const shown = known ?? (name?.trim() || 'Unknown')
  return `${shown} (${number})`
}

/**
 * A security type written without a given number: `Name (N)` as is (the table's name for a known
 * N), a bare name that belongs to one known number with it (`None` → `None (1)`), else as written.
 */
export function vncSecurityTypeText(text: string): string {
  const t = text.trim()
  const m = /^(.*?)\s*\((\d{1,3})\)$/.exec(t)
  if (m) return vncSecurityType(Number(m[2]), m[1])
  if (/^\d{1,3}$/.test(t)) return vncSecurityType(Number(t))
  const n = VNC_NUMBERS.get(loose(t))
  return n === undefined ? t : vncSecurityType(n)
}

/** The RFB protocol version as `major.minor` (`RFB 003.008`, `003.008` → `3.8`); other text as written. */
export function rfbVersion(text: string): string {
  const t = text.trim()
  const m = /^(?:RFB\s*)?0*(\d{1,3})\.0*(\d{1,3})$/i.exec(t)
  return m ? `${m[1]}.${m[2]}` : t
}

/** SSH host key types by the names of other tools (`RSA`, `DSA`, …: nmap's text output, ssh-keyscan's comments). */
const SSH_KEY_TYPES: ReadonlyMap<string, string> = new Map([
  ['rsa', 'ssh-rsa'],
  ['dsa', 'ssh-dss'],
  ['dss', 'ssh-dss'],
  ['ed25519', 'ssh-ed25519'],
  ['ed448', 'ssh-ed448'],
])

/**
 * An SSH host key type by its wire name (`ssh-rsa`, `ssh-dss`, `ecdsa-sha2-nistp256`,
 * `ssh-ed25519`, as in `known_hosts`): wire names lower-cased, `RSA`/`DSA`/`ED25519` and, with
 * the key's size in bits, `ECDSA` named so; other text as written.
 */
export function sshKeyType(text: string, bits?: number): string {
  const t = text.trim()
  const lower = t.toLowerCase()
  if (/^(?:ssh|ecdsa|sk|rsa|x509v3)-[a-z0-9@.-]+$/.test(lower)) return lower
  const named = SSH_KEY_TYPES.get(lower)
  if (named) return named
  if (lower === 'ecdsa' && (bits === 256 || bits === 384 || bits === 521)) return `ecdsa-sha2-nistp${bits}`
  return t
}

/** SSH fingerprints: `SHA256:<base64 without padding>`, or `MD5:<lower-case hex with colons>`. */
export function md5Fingerprint(hex: string): string | undefined {
  const h = hex.trim().replace(/^MD5:/i, '').replace(/:/g, '').toLowerCase()
  return /^[0-9a-f]{32}$/.test(h) ? `MD5:${h.match(/../g)!.join(':')}` : undefined
}
