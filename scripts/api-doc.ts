/**
 * Renders docs/api.md, the API reference, from the OpenAPI document: every operation with its
 * parameters, request body, statuses, headers and media types, then the webhook, the limits of
 * the reference service, and the `redocly lint` warnings we accept (with why).
 */
import { DEFAULT_MAX_BODY_BYTES } from '../src/service/config.js'
import { DEFAULT_PLANS } from '../src/service/auth/plans.js'
import { MAX_API_BODY } from '../src/service/http/read-body.js'
import type { JsonSchema } from '../src/schema/index.js'

type Json = Record<string, any>

/**
 * `redocly lint` warnings (recommended rules) that the document keeps on purpose, by rule id,
 * with the reason. test/schema/openapi.test.ts fails on a warning not listed here.
 */
export const ACCEPTED_LINT_WARNINGS: Record<string, string> = {
  'operation-2xx-response':
    '`GET /ws/service` and `GET /ws/leak` succeed with 101 (Switching Protocols), the WebSocket handshake: OpenAPI 3.1 ' +
    'has no way to describe a WebSocket but as the GET that opens it.',
}

/** Spectral warnings (spectral:oas, .spectral.yaml) kept on purpose, with why; the tests accept only these. */
export const ACCEPTED_SPECTRAL_WARNINGS: Record<string, string> = {
  'info-contact':
    'the document describes an API that any server may implement (the reference service is one of them), not one ' +
    'service with an operator to contact; a made-up address would be worse than none.',
  'operation-success-response':
    '`GET /ws/service` and `GET /ws/leak` succeed with 101 (Switching Protocols): they open a WebSocket, which OpenAPI 3.1 ' +
    'can describe only as the GET that asks for it (its messages are named by `x-message-schema`).',
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)

/** A short name for a schema: its component, `array of …`, a type with its rule. */
function schemaText(schema: Json | undefined): string {
  if (schema === undefined) return ''
  if (schema.$ref) return `\`${refName(schema.$ref)}\``
  if (schema.anyOf) return (schema.anyOf as Json[]).map(schemaText).join(' or ')
  if (schema.type === 'array') return `array of ${schemaText(schema.items)}`
  if (schema.enum) return (schema.enum as unknown[]).map((v) => `\`${String(v)}\``).join(', ')
  const rule = schema.pattern ? ` matching \`${schema.pattern}\`` : ''
  return `${schema.type ?? 'any'}${rule}`
}

function security(op: Json, doc: Json): string {
  const requirements = (op.security ?? doc.security) as Json[]
  const names = requirements.map((r) => Object.keys(r)[0]).filter(Boolean) as string[]
  const optional = requirements.some((r) => Object.keys(r).length === 0)
  if (names.length === 0) return 'none'
  const shown = names.map((n) => {
    const scheme = doc.components.securitySchemes[n] as Json
    return scheme.type === 'apiKey' ? `\`${scheme.name}\` header` : `\`authorization: Bearer\` (${n})`
  })
  return `${shown.join(' or ')}${optional ? ', optional' : ', required'}`
}

function operation(path: string, method: string, op: Json, shared: Json[], doc: Json): string[] {
  const lines = [`### \`${method.toUpperCase()} ${path}\``, '', `**${op.summary}.** ${op.description ?? ''}`, '']
  lines.push(`- Operation id: \`${op.operationId}\`; tags: ${(op.tags as string[]).map((t) => `\`${t}\``).join(', ')}`)
  lines.push(`- Authentication: ${security(op, doc)}`)
  const params = [...shared, ...((op.parameters ?? []) as Json[])]
  if (params.length > 0) {
    lines.push('', '| Parameter | In | Required | Schema | Description |', '|---|---|---|---|---|')
    for (const p of params) lines.push(`| \`${p.name}\` | ${p.in} | ${p.required ? 'yes' : 'no'} | ${cell(schemaText(p.schema))} | ${cell(p.description)} |`)
  }
  if (op.requestBody) {
    const media = Object.entries(op.requestBody.content as Json).map(([type, m]) => `\`${type}\` (${schemaText((m as Json).schema)})`)
    lines.push('', `Request body${op.requestBody.required ? '' : ' (optional)'}: ${media.join('; ')}.`)
  }
  lines.push('', '| Status | Body | Headers | Meaning |', '|---|---|---|---|')
  for (const [status, response] of Object.entries(op.responses as Json)) {
    const r = response as Json
    const media = Object.entries((r.content ?? {}) as Json).map(([type, m]) => `\`${type}\`${(m as Json).schema?.$ref ? ` ${schemaText((m as Json).schema)}` : ''}`)
    const headers = Object.keys((r.headers ?? {}) as Json).map((h) => `\`${h}\``)
    lines.push(`| ${status} | ${cell(media.join(', ') || '—')} | ${cell(headers.join(', ') || '—')} | ${cell(r.description)} |`)
  }
  lines.push('')
  return lines
}

function limits(): string[] {
  const plans = Object.values(DEFAULT_PLANS)
  return [
    '## Limits of the reference service',
    '',
    'Defaults of `l9kit serve`; a configuration file changes them (docs/service.md).',
    '',
    '| Plan | Rate | Burst | Subdomain entries per answer |',
    '|---|---|---|---|',
    ...plans.map((p) => `| ${p.name} | ${p.rate ? `${p.rate.rate}/s` : 'none'} | ${p.rate ? p.rate.burst : '—'} | ${p.subdomains ?? 'all'} |`),
    '',
    `- Request bodies: \`POST /admin/events\` up to ${DEFAULT_MAX_BODY_BYTES} bytes (\`max_body_bytes\`); the hook API up to ${MAX_API_BODY} bytes. Larger: 413.`,
    '- A rate-limited request gets 429 with the reason phrase `Rate-limited`, `x-limited-for` (a Go duration) and `retry-after` (whole seconds). Lookups without a key are limited per client address; with a key, per key.',
    '- Hook routes are charged to the key like lookups.',
    '',
  ]
}

/** docs/api.md from the OpenAPI document. Deterministic. */
export function renderApiDoc(api: JsonSchema): string {
  const doc = api as Json
  const lines = [
    '# Lookup API reference',
    '',
    '<!-- Generated by `npm run generate` from schema/openapi.json (src/schema/openapi.ts). Do not edit by hand. -->',
    '',
    String(doc.info.description),
    '',
    `The machine-readable description is \`schema/openapi.json\` (OpenAPI ${doc.openapi}, version ${doc.info.version}). The service itself, its`,
    'configuration and choices are described in docs/service.md, the hooks in docs/hooks.md.',
    '',
    '## Authentication',
    '',
    ...Object.entries(doc.components.securitySchemes as Json).map(([name, s]) => `- \`${name}\`: ${(s as Json).description}`),
    '',
    '## Operations',
    '',
    ...(doc.tags as Json[]).map((t) => `- \`${t.name}\`: ${t.description}`),
    '',
  ]
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS) {
      if ((item as Json)[method]) lines.push(...operation(path, method, (item as Json)[method], ((item as Json).parameters ?? []) as Json[], doc))
    }
  }
  lines.push('## Webhooks', '')
  for (const [name, item] of Object.entries(doc.webhooks as Json)) {
    const op = (item as Json).post as Json
    lines.push(`### \`${name}\` (POST to the hook's URL)`, '', `**${op.summary}.** ${op.description}`, '', '| Header | Required | Schema | Description |', '|---|---|---|---|')
    for (const p of op.parameters as Json[]) lines.push(`| \`${p.name}\` | ${p.required ? 'yes' : 'no'} | ${cell(schemaText(p.schema))} | ${cell(p.description)} |`)
    lines.push('', 'Body: `application/json`, one `event` document.', '')
  }
  lines.push('## Response headers', '', '| Header | Schema | Description |', '|---|---|---|')
  for (const [name, h] of Object.entries(doc.components.headers as Json)) lines.push(`| \`${name}\` | ${cell(schemaText((h as Json).schema))} | ${cell((h as Json).description)} |`)
  lines.push('')
  lines.push(...limits())
  lines.push('## Lint', '', 'Three checkers run in the tests (test/schema/) and must report no error: the official OpenAPI 3.1 schema,')
  lines.push('`redocly lint` with the recommended rules (redocly.yaml) and Spectral with its `spectral:oas` ruleset (.spectral.yaml).', '')
  lines.push(...kept('redocly lint', ACCEPTED_LINT_WARNINGS), ...kept('Spectral', ACCEPTED_SPECTRAL_WARNINGS))
  return lines.join('\n')
}

/** The warnings a linter still reports, each with why it is kept. */
function kept(tool: string, warnings: Record<string, string>): string[] {
  const accepted = Object.entries(warnings)
  if (accepted.length === 0) return [`${tool} reports no warning either; any warning would have to be listed here with its reason.`, '']
  return [`Warnings of ${tool} kept on purpose:`, '', ...accepted.map(([rule, why]) => `- \`${rule}\`: ${why}`), '']
}
