/** `l9kit filter`: prints the event documents a search query matches, as given. */
import { JsonlWriter } from '../../jsonl/index.js'
import { parseQuery, type Query, QueryError, readingLine, readingOf } from '../../query/index.js'
import { jobsOption, oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../command.js'
import { keepingOutput } from '../keep-output.js'
import { ProblemLimit } from '../problem-limit.js'
import { openInputs } from '../inputs.js'
import type { FilterJobSettings } from '../parallel/jobs/filter.js'
import { defaultJobs, runJobs } from '../parallel/run.js'
import { filterHere, type FilterHereState } from './filter-here.js'

const HELP = `Usage: l9kit filter QUERY [FILE...] [options]

Prints each event document that QUERY matches, exactly as given (JSON Lines: the line, byte
for byte; one document or an array spread over lines: its text, or an element's compact
JSON; a line holding a JSON array is read element by element, as the service stores it,
and a matching element printed as its compact JSON), in input order. QUERY is the search API's query language (docs/search.md), for
example '+severity:critical -country:FR' or 'ip:192.0.2.0/24 +port:443'. A document is
judged as the service would store it: normalised first (lenient values, an empty
fingerprint computed). No FILE, or '-', reads standard input; gzip-compressed input is
decompressed. Memory stays bounded whatever the input's size.

Options:
  --scope any|service|leak  any: every document and every field (default); service or leak:
                            only events of that event_type, and leak-only fields (severity,
                            age, creation_date, leak.*, …) refused with service, as the search
                            API does. Offline, an event's first and last seen times are its
                            own time: creation_date = update_date = time, age = 0
  --max-line-bytes N        longest accepted line in bytes (default 67108864)
  --jobs N                  worker threads for JSON Lines input (default: one per core, at
                            most 8); 1 reads on the main thread only. Output is the same
  -h, --help                show this help

A record that is not JSON or cannot be normalised is reported on standard error as
'file:line: pointer: message', counted in a last line there, and not printed.
A query that parses but reads differently from Shodan's or Lucene's language (AND, OR, NOT,
!field:v, field=v, field:a,b, a field with no value) gets a warning line on standard error
saying how it was read and what to write instead (docs/search.md).
Exit status: 0 some document matched, 1 none matched (as grep), 2 a bad query (its
position and term are shown), a usage or an I/O error.`

export const filter: Command = {
  name: 'filter',
  summary: 'Print the event documents a search query matches',
  help: HELP,
  common: ['max-errors'],
  async run(argv, io) {
    const { values, positionals } = parse('filter', argv, {
      scope: { type: 'string' },
      'max-line-bytes': { type: 'string' },
      jobs: { type: 'string' },
    })
    const scope = oneOf('filter', 'scope', values.scope, ['any', 'service', 'leak'] as const, 'any')
    const maxLineBytes = positiveInt('filter', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024)
    const jobs = jobsOption('filter', values.jobs, defaultJobs())
    const [text, ...paths] = positionals
    if (text === undefined) throw new UsageError("filter: a QUERY is needed, such as 'port:443' or '*' (see 'l9kit filter --help')")
    let query: Query
    try {
      query = parseQuery(text, { scope })
    } catch (error) {
      if (!(error instanceof QueryError)) throw error
      io.stderr.write(`l9kit filter: ${error.message}\n${error.caret(text)}\n`)
      return EXIT.usage
    }
    // Words that look like operators keep LeakIX's meaning, but never silently.
    const reading = readingLine(readingOf(query))
    if (reading !== '') io.stderr.write(`l9kit filter: warning: ${reading}\n`)
    const inputs = await openInputs(paths, () => io.stdin)
    const out = new JsonlWriter(io.stdout)
    const err = new JsonlWriter(io.stderr, 16 * 1024)
    const problems = new ProblemLimit(err, io.maxErrors)
    const counts = { matched: 0, invalid: 0 }
    const settings: FilterJobSettings = { query: text, scope }
    const state: FilterHereState = { records: 0 }
    await keepingOutput([out, err], async () => {
      for (const input of inputs) {
        // Large JSON Lines inputs go to worker threads (--jobs); the rest is read here.
        const handled = await runJobs(input, { job: 'filter', jobs, maxLineBytes, settings }, [out, problems])
        if ('counts' in handled) {
          counts.matched += handled.counts[0]!
          counts.invalid += handled.counts[1]!
          continue
        }
        await filterHere({ ...input, stream: handled.rest }, query, maxLineBytes, counts, { out, problems }, state)
      }
    })
    await out.flush()
    const note = problems.note()
    if (note !== undefined) await err.write(note)
    const { matched, invalid } = counts
    if (invalid > 0) await err.write(`filter: ${invalid} record${invalid === 1 ? '' : 's'} could not be read or normalised (above); ${matched} matched`)
    await err.flush()
    return matched > 0 ? EXIT.ok : EXIT.failed
  },
}
