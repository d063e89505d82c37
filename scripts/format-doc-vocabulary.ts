/**
 * The sections of docs/format.md that say how values are spelt and which profile writes `ssh`:
 * the vocabulary (from src/normalize/vocabulary.ts, so the tables are the code's) and the note
 * for Python readers of the owner's model.
 */
import { MYSQL_STATUS_FLAGS, TELNET_OPTIONS, VNC_SECURITY_TYPES } from '../src/normalize/vocabulary.js'

/** `| a | b |` rows of pairs, several pairs per row to keep long lists short. */
function pairs(head: [string, string], items: readonly (readonly [string, string])[], perRow: number): string[] {
  const header = `|${` ${head[0]} | ${head[1]} |`.repeat(perRow)}`
  const rule = `|${'---|---|'.repeat(perRow)}`
  const rows: string[] = []
  for (let i = 0; i < items.length; i += perRow) {
    const cells = items.slice(i, i + perRow).flatMap(([a, b]) => [a, b])
    while (cells.length < perRow * 2) cells.push('')
    rows.push(`| ${cells.join(' | ')} |`)
  }
  return [header, rule, ...rows]
}

export function vocabularySection(): string[] {
  return [
    '',
    '## Vocabulary',
    '',
    'Tools report the same fact in different words: nmap says a MySQL server is in `Autocommit`, ZGrab2',
    'says `SERVER_STATUS_AUTOCOMMIT`, Shodan `2`. A query or a report grouping by a member must see one',
    'spelling per fact, so each member below has one. Every converter writes it, and `l9kit normalize`',
    'rewrites the other spellings of the same fact that a lenient document holds (the table says which);',
    'a value none of the tables knows is kept as written, never guessed at. The spelling chosen is the',
    "protocol's own where it has one. `test/convert/vocabulary.test.ts` converts each fact from every",
    'tool that reports it and checks that it lands in the same member with the same spelling.',
    '',
    '| Member | Spelling | Other spellings `normalize` rewrites |',
    '|---|---|---|',
    "| `mysql.server_status` | the status flags set, by MySQL's protocol names (`mysql_com.h`, below), in bit order, joined with `, `: `SERVER_STATUS_AUTOCOMMIT`; a bit without a name as its value, `0x8000` | the status number (`2`, `0x0002`), nmap's names (`Autocommit`, `InTransaction`, …), other libraries' (`SERVER_STATUS_NO_GOOD_INDEX_USED`), in any case |",
    "| `telnet.options` | each option once, in the order offered, by the name its RFC gives it (below): `SUPPRESS-GO-AHEAD`, `NAWS`, `ENCRYPT`; an option without a name as `OPTION-<number>` | the IANA registry's titles (`Suppress Go Ahead`, what ZGrab2 and Shodan write), `arpa/telnet.h`'s names (`SGA`, `TTYPE`), option numbers, in any case |",
    '| `vnc.security_types` | `<name> (<number>)`, the name the RFB registry gives the number (below), else the tool\'s: `VNC Authentication (2)`; two types of one name stay apart (`Mac OS X security type (30)`, `… (35)`) | a name that belongs to one number only (`None` → `None (1)`), a number alone |',
    '| `vnc.version` | `major.minor`: `3.8` | `RFB 003.008`, `003.008` |',
    '| `ssh.key_type` | the wire name, as in `known_hosts`: `ssh-rsa`, `ssh-dss`, `ecdsa-sha2-nistp256`, `ssh-ed25519` | `RSA`, `DSA`, `ED25519` and upper-case wire names |',
    '| `ssh.fingerprint` | `SHA256:<base64 without padding>` of the key blob when the key or its SHA-256 is known (OpenSSH\'s form); else `MD5:<lower-case hex with colons>` | none: `normalize` leaves the four `ssh` members of the original Go model as they are (byte compatibility with its tools); converters write this spelling |',
    "| `dns.version`, `dns.software` | the server's answer to `version.bind` goes to `dns.version`, whole (nmap's `dns-nsid` and Shodan's `dns.software`, which holds that answer); `dns.software` only holds a software name a tool gives as such | none: `normalize` never moves a value to another member |",
    '| `ssl.certificate.domain` | DNS names only, each once; an IP address, even in a SAN\'s DNS entry (`::1`), is left out | none (converters) |',
    '',
    'Elsewhere the tools agree, and converters keep what they say as said: SMTP extensions as announced',
    '(`SIZE 10240000`), banners as the tool recorded them, versions as the server reports them.',
    '',
    'MySQL status flags:',
    '',
    ...pairs(
      ['Bit', 'Name'],
      MYSQL_STATUS_FLAGS.map(([bit, name]) => [`\`0x${bit.toString(16).padStart(4, '0')}\``, `\`${name}\``] as const),
      2,
    ),
    '',
    'Telnet options:',
    '',
    ...pairs(
      ['Option', 'Name'],
      [...TELNET_OPTIONS].map(([n, name]) => [String(n), `\`${name}\``] as const),
      4,
    ),
    '',
    'VNC security types:',
    '',
    ...pairs(
      ['Type', 'Name'],
      [...VNC_SECURITY_TYPES].map(([n, name]) => [String(n), name] as const),
      3,
    ),
  ]
}

export function sshProfilesSection(): string[] {
  return [
    '',
    '## `ssh` on every event: who writes what',
    '',
    'The original Go model (`L9Event`, 2021) holds `ssh` as a struct, not a pointer: its tools write',
    '`"ssh": {"fingerprint": "", "version": 0, "banner": "", "motd": ""}` on every event, HTTP and FTP',
    'ones included. The format owner\'s current Python model makes it optional (`ssh: Optional[L9SSHEvent]',
    '= None`). l9kit keeps the Go bytes, since byte compatibility with the Go tools is what the strict',
    'profile is for:',
    '',
    '| Profile | `ssh` |',
    '|---|---|',
    '| strict (what `normalize`, `convert`, the service and its API write) | always present, its four members always written (empty when unknown), exactly as the Go tools write it; the members after `motd` only when known |',
    '| lenient (what `validate --profile lenient` accepts, what `normalize` reads) | may be missing; `normalize` then writes the empty one |',
    '| the owner\'s Python model reading either | an `L9SSHEvent` on every event that has the member: on l9kit\'s output, every event |',
    '',
    'So a Python reader cannot take `event.ssh is not None` to mean "SSH data": test the members.',
    '',
    '<!-- doc-test: run by test/interop/owner-ssh.test.ts -->',
    '```python',
    'def has_ssh(event) -> bool:',
    '    """True when an event (the owner\'s L9Event) carries SSH data, not just the empty `ssh` every event has."""',
    '    ssh = event.ssh',
    '    return ssh is not None and bool(ssh.fingerprint or ssh.banner or ssh.key or ssh.version)',
    '```',
    '',
    '`has_ssh` is about the data; `event.protocol == "ssh"` says which service the event is about.',
  ]
}
