/**
 * The judge of one kind of document, its validator loaded on demand: what the CLI uses, so that
 * validating events loads the event's validator of one profile and nothing else (no other
 * document's code, no TypeBox). The library's `validate()` and `validateDocument()` hold every
 * validator instead (they are synchronous).
 */
import type { DocumentName } from '../schema/documents.js'
import { loadValidator } from './compiled/load.js'
import { documentReport, eventReport } from './event-report.js'
import type { Report } from './issue.js'

/** Judges one parsed document. */
export type Judge = (value: unknown) => Report

/** The judge of document `name`: an event profile with its warnings, any other document by its schema. */
export async function loadJudge(name: DocumentName): Promise<Judge> {
  const check = await loadValidator(name)
  if (name === 'event' || name === 'event.lenient') {
    const strict = name === 'event'
    return (value) => eventReport(check, strict, value)
  }
  return (value) => documentReport(check, value)
}
