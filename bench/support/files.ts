/** Large JSON Lines inputs for the whole-process benches, written to a file. */
import { closeSync, openSync, writeSync } from 'node:fs'
import { benchEvent } from './events.js'

/** Writes lines made by `line(i)` until the file holds `mb` megabytes (MiB). */
export function writeLines(path: string, mb: number, line: (i: number) => string): void {
  const fd = openSync(path, 'w')
  let bytes = 0
  for (let i = 0; bytes < mb * 1024 * 1024; ) {
    const batch: string[] = []
    for (let k = 0; k < 1000; k++) batch.push(line(i++))
    const text = `${batch.join('\n')}\n`
    bytes += Buffer.byteLength(text)
    writeSync(fd, text)
  }
  closeSync(fd)
}

/** What a tool writes for a benchmark event: numbers as numbers, nulls for empty lists (normalize rewrites it). */
export function toolLine(i: number): string {
  const e = benchEvent(i)
  return JSON.stringify({ ...e, port: Number(e.port), tags: e.tags.length ? e.tags : null, http: { ...e.http, status: String(e.http.status) } })
}
