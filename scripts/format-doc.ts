/** Renders docs/format.md, the field reference, from the strict and lenient schema documents. */
import type { JsonSchema } from '../src/schema/index.js'
import { sshProfilesSection, vocabularySection } from './format-doc-vocabulary.js'

type Node = JsonSchema & {
  type?: string
  properties?: Record<string, Node>
  required?: string[]
  anyOf?: Node[]
  items?: Node
  additionalProperties?: Node | boolean
  $ref?: string
  pattern?: string
  minimum?: number
  maximum?: number
}

const refName = (ref: string) => ref.replace('#/$defs/', '')

/** Parts that are not objects (the lenient forms of the protocol members): shown by what they hold. */
let leaves: Record<string, Node> = {}

function typeOf(node: Node): string {
  const leaf = node.$ref ? leaves[refName(node.$ref)] : undefined
  if (leaf) return typeOf(leaf)
  if (node.$ref) return `object (\`${refName(node.$ref)}\`)`
  if (node.anyOf) return node.anyOf.map(typeOf).join(' or ')
  if (node.type === 'array') return `array of ${typeOf(node.items ?? {})}`
  if (node.type === 'object' && typeof node.additionalProperties === 'object') return `map of string to ${typeOf(node.additionalProperties)}`
  return node.type ?? 'any'
}

function ruleOf(node: Node, patternNames: Map<string, string>): string {
  const leaf = node.$ref ? leaves[refName(node.$ref)] : undefined
  // A lenient member form: the rules of its alternatives (the text it also reads).
  if (leaf?.anyOf) return leaf.anyOf.map((alt) => ruleOf(alt, patternNames)).filter(Boolean).join('; ')
  const rules: string[] = []
  if (node.pattern) rules.push(patternNames.get(node.pattern) ?? `matches \`${node.pattern}\``)
  if (node.minimum !== undefined && node.maximum !== undefined && node.maximum < Number.MAX_SAFE_INTEGER) rules.push(`${node.minimum}–${node.maximum}`)
  else if (node.minimum !== undefined) rules.push(`≥ ${node.minimum}`)
  return rules.join('; ')
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

function table(strict: Node, lenient: Node, patternNames: Map<string, string>, optional: Set<string>): string[] {
  const rows = ['| Field | Type (strict) | Rule (strict) | Lenient also accepts | Description |', '|---|---|---|---|---|']
  for (const [name, prop] of Object.entries(strict.properties ?? {})) {
    const loose = lenient.properties?.[name] ?? prop
    const strictType = typeOf(prop)
    const looseType = typeOf(loose)
    const extra = [looseType !== strictType ? looseType : '', ruleOf(loose, patternNames) !== ruleOf(prop, patternNames) ? ruleOf(loose, patternNames) : '']
      .filter(Boolean)
      .join('; ')
    const required = strict.required?.includes(name) ? '' : ' (may be omitted)'
    optional.add(name)
    rows.push(
      `| \`${name}\` | ${cell(strictType)}${required} | ${cell(ruleOf(prop, patternNames))} | ${cell(extra || '—')}; may be missing | ${cell(String(prop.description ?? ''))} |`,
    )
  }
  return rows
}

/** Example values shown under the tables: a whole event, and one value per named part. */
export interface FormatExamples {
  event: unknown
  parts: Record<string, unknown>
}

const exampleBlock = (value: unknown) => (value === undefined ? [] : ['', 'Example:', '', '```json', JSON.stringify(value, null, 2), '```'])

/**
 * The aggregation document's section: what a resource is, then its members (the event, `geoip`
 * and `network` inside it are the ones described above).
 */
function aggregationSection(strict: Node, lenient: Node, patternNames: Map<string, string>, example: unknown): string[] {
  return [
    '',
    '## Aggregation',
    '',
    String(strict.description ?? ''),
    '',
    'Schemas: `schema/aggregation.schema.json` (strict), `schema/aggregation.lenient.schema.json`',
    '(lenient: members may be missing, events in the lenient profile). `l9kit validate --document',
    'aggregation` checks them. A **resource** is an address: the events whose `ip` (or, without one,',
    'whose `host` when it is an IP literal) is that address, in canonical form, whatever host names they',
    'carry; events with no address at all form a resource per canonical host name. `leak_count` counts',
    'distinct leaks (one per plugin, host and port), `leak_event_count` the stored leak events behind',
    'them; `fresh` says the resource was seen in the 7 days before the aggregation was made; `geoip`',
    'and `network` are those of its newest event that carries a non-empty one.',
    'docs/service.md ("Aggregations") says why and how each member is computed. Every member is always',
    'written, never `null`, as the format owner\'s Python library reads them.',
    '',
    ...table(strict, lenient, patternNames, new Set()),
    ...exampleBlock(example),
  ]
}

export function renderFormatDoc(
  strict: JsonSchema,
  lenient: JsonSchema,
  patternNames: Map<string, string>,
  examples?: FormatExamples,
  aggregation?: { strict: JsonSchema; lenient: JsonSchema; example?: unknown },
): string {
  const s = strict as Node
  const l = lenient as Node
  const defs = (s.$defs ?? {}) as Record<string, Node>
  const ldefs = (l.$defs ?? {}) as Record<string, Node>
  leaves = Object.fromEntries(Object.entries(ldefs).filter(([, def]) => def.type !== 'object' && def.anyOf !== undefined))
  const used = new Set<string>()
  const lines = [
    '# Event document: field reference',
    '',
    '<!-- Generated by `npm run generate` from src/schema/. Do not edit by hand. -->',
    '',
    String(s.description ?? ''),
    '',
    'Two profiles come from the same definitions. **Strict** is the canonical form: every member present',
    'with its exact type. **Lenient** is what real tools emit: any member may be missing, arrays and maps',
    'may be `null`, integers and numbers may be numeric strings, times may carry any RFC 3339 offset, and',
    '`port` may be a JSON number. `l9kit normalize` turns a lenient document into a strict one. Members',
    'not listed here are accepted by both profiles; strict reports them as `unknown_member` warnings.',
    '',
    'The **protocol objects** (`vnc` … `rtsp`, after `network`) and the members that extend `ssh` (after',
    '`motd`) are the format owner\'s current model (Python `l9format` 1.4.0+). They are the exception to',
    '"every member present": each object may be left out, and so may each of its members; in canonical',
    'form an absent object or member stays absent (never `null`, never `{}` for an absent object), and',
    'the members of a present one keep the order of the tables below. Strict holds a present member to',
    'its type (`"auth_required": "no"` is an error); lenient also reads `null` as absent, a yes/no answer',
    'as a boolean (`true`/`yes`/`1` and `false`/`no`/`0`, as text too) and an integer as text. Added in',
    'schema 1.1.0; documents without them are read and written exactly as before.',
    '',
    'Schemas: `schema/event.schema.json` (strict), `schema/event.lenient.schema.json` (lenient).',
    '',
    '## Event',
    '',
    ...table(s, l, patternNames, used),
    ...exampleBlock(examples?.event),
  ]
  for (const [name, def] of Object.entries(defs)) {
    lines.push('', `## \`${name}\``, '', String(def.description ?? ''), '', ...table(def, ldefs[name] ?? def, patternNames, used))
    lines.push(...exampleBlock(examples?.parts[name]))
  }
  lines.push(...vocabularySection(), ...sshProfilesSection())
  if (aggregation) lines.push(...aggregationSection(aggregation.strict as Node, aggregation.lenient as Node, patternNames, aggregation.example))
  lines.push(
    '',
    '## Patterns',
    '',
    'Patterns are ECMA-262, as JSON Schema prescribes, and use only what RE2, Rust, Java and Python read',
    'alike (`[0-9]` rather than `\\d`, no look-around, printable ASCII only). One difference would remain:',
    '`$` also matches before a final `\\n` in Python\'s `re` and before a final line terminator in Java\'s',
    '`java.util.regex`, so `"443\\n"` would pass there. Every pattern therefore comes with',
    '`"not": {"pattern": "[^ -~]"}`, which refuses any character outside printable ASCII in every engine',
    '(under ECMA-262 the patterns match printable ASCII only, so it changes no verdict). Stock',
    'validators need no special setting: python-jsonschema, Go\'s `regexp`, Rust\'s `regex`, Java and ajv',
    'agree on the whole corpus (test/languages/patterns.test.ts; docs/languages.md).',
    '',
    ...[...patternNames.entries()].map(([source, name]) => `- ${name}: \`${source}\``),
    '',
  )
  return lines.join('\n')
}
