/**
 * Validate throughput vs bare JSON.parse on the same lines, in the same run (issue 2).
 * Validation includes its parse, so the ratio is parse time ÷ (parse + validate) time.
 */
import { validate } from '../src/validate/index.js'
import { benchLines } from './support/events.js'
import { bestOf, mb, report } from './support/measure.js'

const count = Number(process.env.L9KIT_BENCH_EVENTS ?? 100_000)
const lines = benchLines(count)
const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0)
console.log(`validate: ${count} events, ${mb(bytes).toFixed(1)} MB, mean ${(bytes / count).toFixed(0)} bytes/event`)

let sink = 0
const parseMs = bestOf(5, () => {
  for (const line of lines) sink += (JSON.parse(line) as { port: string }).port.length
})
const validateMs = bestOf(5, () => {
  for (const line of lines) if (validate(JSON.parse(line), { profile: 'strict' }).ok) sink++
})
const lenientMs = bestOf(5, () => {
  for (const line of lines) if (validate(JSON.parse(line), { profile: 'lenient' }).ok) sink++
})
if (sink < 0) console.log(sink)
report('JSON.parse', mb(bytes) / (parseMs / 1000), 'MB/s')
report('parse + validate strict', mb(bytes) / (validateMs / 1000), 'MB/s', { value: parseMs / validateMs, baseline: 'JSON.parse', target: '>= 0.80' })
report('parse + validate lenient', mb(bytes) / (lenientMs / 1000), 'MB/s', { value: parseMs / lenientMs, baseline: 'JSON.parse' })
report('validate cost', ((validateMs - parseMs) * 1000) / count, 'µs/event')
