/** A problem found in a document: by the validators, the normalisers or the converters. */

/** Stable codes; tools and tests match on these, never on messages. */
export type IssueCode =
  | 'missing_member'
  | 'wrong_type'
  | 'bad_timestamp'
  | 'bad_fingerprint'
  | 'bad_port'
  | 'bad_base64'
  | 'bad_number'
  | 'out_of_range'
  | 'unknown_member'
  | 'unknown_value'
  | 'bad_json'
  | 'not_object'
  | 'not_event'
  | 'line_too_long'
  | 'bad_utf8'
  | 'too_deep'
  | 'internal_error'
  | 'invalid'

export interface Issue {
  code: IssueCode
  /** JSON pointer (RFC 6901) into the document; '' is the whole document. */
  pointer: string
  /** One sentence a person can act on. */
  message: string
  /** The rule broken, e.g. `type: string`, `pattern: canonical time`. */
  rule?: string
  expected?: string
  found?: unknown
  /** For `internal_error` only: the stack trace, for the report we ask the user to file. */
  stack?: string
}

export interface Report {
  ok: boolean
  errors: Issue[]
  warnings: Issue[]
}

/** Escapes one reference token of a JSON pointer. */
export const pointerToken = (token: string | number) => String(token).replace(/~/g, '~0').replace(/\//g, '~1')

export const pointerOf = (...tokens: (string | number)[]) => tokens.map((t) => '/' + pointerToken(t)).join('')
