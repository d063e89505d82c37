/**
 * Small constructors for the schema's leaf fields, so every field carries a title and a
 * description (they feed docs/format.md) and the same kinds of value are spelled one way.
 */
import Type from 'typebox'
import { BASE64, FINGERPRINT, PORT, TIME_CANONICAL } from './patterns.js'

export const text = (title: string, description: string) => Type.String({ title, description })

export const flag = (title: string, description: string) => Type.Boolean({ title, description })

/** Integer in range; JSON has no int64, so the largest is JavaScript's safe integer. */
export const int = (title: string, description: string, minimum = 0, maximum = Number.MAX_SAFE_INTEGER) =>
  Type.Integer({ title, description, minimum, maximum })

export const num = (title: string, description: string, minimum: number, maximum: number) =>
  Type.Number({ title, description, minimum, maximum })

export const texts = (title: string, description: string) =>
  Type.Array(Type.String(), { title, description })

export const time = (title: string, description: string) =>
  Type.String({ title, description, pattern: TIME_CANONICAL })

export const fingerprint = (title: string, description: string) =>
  Type.String({ title, description, pattern: FINGERPRINT })

/** Bytes as standard base64 text (what Go's encoding/json makes of a `[]byte`). */
export const base64 = (title: string, description: string) => Type.String({ title, description, pattern: BASE64 })

export const port = (title: string, description: string) => Type.String({ title, description, pattern: PORT })

/** A map of names to string values (HTTP headers). Names are data, never object keys of ours. */
export const stringMap = (title: string, description: string) =>
  Type.Record(Type.String(), Type.String(), { title, description })

export const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, title: string, description: string) =>
  Type.Union([schema, Type.Null()], { title, description })
