/** `l9kit normalize`: rewrites event documents in canonical form, as compact JSON Lines. */
import type { Writable } from 'node:stream'
import { JsonlWriter } from '../../jsonl/index.js'
import { normalizeRecords, resolveOptions } from '../../normalize/index.js'
import { jobsOption, oneOf, parse, positiveInt } from '../args.js'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../command.js'
import { keepingOutput } from '../keep-output.js'
import { openInputs, warnOn } from '../inputs.js'
import type { NormalizeJobSettings } from '../parallel/jobs/normalize.js'
import { defaultJobs, runJobs } from '../parallel/run.js'
import { ProblemLimit } from '../problem-limit.js'
import { Progress } from '../progress.js'
import { WRITE_OPTIONS, writeOptions, writeOptionsHelp } from '../write-options.js'
import { normalizeOutput } from './normalize-record.js'

const HELP = `Usage: l9kit normalize [FILE...] [options]

Rewrites each event document (JSON Lines, one JSON document, or a JSON array) in canonical
form and writes it to standard output as compact JSON Lines, one document per line: every
member present in the specification's order, times in canonical UTC, numbers and ports
coerced, null arrays and maps filled, header names in byte order. A record that is
already canonical is written byte for byte as it came. No FILE, or '-', reads standard
input; gzip-compressed input is decompressed. With --check, writes no documents: names
each record that is not canonical.

Options:
  --header-case keep|lower    keep: header names as given (default); lower: lower-case
                              them, joining the values of names that then collide with
                              ', ' (never set-cookie: its spellings are kept apart)
  --fingerprint keep|v1|v2|missing
                              keep: never change event_fingerprint (default); v1 or v2:
                              recompute it with that version; missing: compute version 1
                              only where it is empty
${writeOptionsHelp(30)}
  --check                     write nothing but 'file:line' of each record that is not
                              canonical (as the options above define it; a CR LF line end
                              or a byte order mark is not) or cannot be normalised; exit 1
                              if there is one (for CI)
  --rejects FILE              also write every record that could not be normalised,
                              unchanged, to FILE (one per line), so nothing is lost
  --no-warnings               do not report warnings (unknown members, kept apart headers)
  --max-line-bytes N          longest accepted line in bytes (default 67108864)
  --jobs N                    worker threads for JSON Lines input (default: one per core, at
                              most 8); 1 reads on the main thread only. Output is the same
  -h, --help                  show this help

Problems go to standard error as 'file:line: pointer: message'. A progress bar is drawn on
standard error when it is a terminal and the input is a file.
Exit status: 0 all records normalised (--check: all canonical), 1 some record failed
(--check: or is not canonical), 2 usage or I/O error.`

async function openRejects(path: string): Promise<Writable> {
  // node:fs/promises loaded here only: it brings readline and more, which a run without --rejects does not need.
  const { open } = await import('node:fs/promises')
  const handle = await open(path, 'w') // fails now (exit 2) if the file cannot be created
  return handle.createWriteStream()
}

async function close(stream: Writable): Promise<void> {
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())))
}

export const normalize: Command = {
  name: 'normalize',
  summary: 'Rewrite event documents in canonical form',
  help: HELP,
  common: ['max-errors'],
  async run(argv, io) {
    const { values, positionals } = parse('normalize', argv, {
      'header-case': { type: 'string' },
      fingerprint: { type: 'string' },
      rejects: { type: 'string' },
      'no-warnings': { type: 'boolean' },
      'max-line-bytes': { type: 'string' },
      jobs: { type: 'string' },
      check: { type: 'boolean' },
      ...WRITE_OPTIONS,
    })
    const check = values.check === true
    if (check && values.rejects !== undefined) throw new UsageError('normalize: --check writes nothing, so --rejects cannot be used with it')
    const options = {
      ...writeOptions('normalize', values),
      headerCase: oneOf('normalize', 'header-case', values['header-case'], ['keep', 'lower'] as const, 'keep'),
      fingerprint: oneOf('normalize', 'fingerprint', values.fingerprint, ['keep', 'v1', 'v2', 'missing'] as const, 'keep'),
      maxLineBytes: positiveInt('normalize', 'max-line-bytes', values['max-line-bytes'], 64 * 1024 * 1024),
    }
    const showWarnings = !values['no-warnings'] && !io.quiet
    const jobs = jobsOption('normalize', values.jobs, defaultJobs())
    const inputs = await openInputs(positionals, () => io.stdin, warnOn(io.stderr))
    const rejectsStream = values.rejects === undefined ? undefined : await openRejects(values.rejects)
    const rejects = rejectsStream && new JsonlWriter(rejectsStream)
    const progress = new Progress(io)
    const out = new JsonlWriter(progress.stdout)
    const err = new JsonlWriter(progress.stderr, 16 * 1024)
    const problems = new ProblemLimit(err, io.maxErrors)
    let done = 0
    let failed = 0
    await keepingOutput([out, err, rejects], async () => {
      const settings: NormalizeJobSettings = { options: resolveOptions(options), showWarnings, check, rejects: rejects !== undefined }
      for (const input of inputs) {
        // Large JSON Lines inputs go to worker threads (--jobs); the rest is read here.
        const stream = progress.track(input)
        const handled = await runJobs({ ...input, stream }, { job: 'normalize', jobs, maxLineBytes: options.maxLineBytes, settings }, [out, problems, rejects])
        if ('counts' in handled) {
          done += handled.counts[0]!
          failed += handled.counts[1]!
          progress.done()
          continue
        }
        for await (const record of normalizeRecords(handled.rest, options)) {
          const result = normalizeOutput(record, input.name, settings)
          if (result.ok) done++
          else failed++
          if (result.out !== undefined) {
            const pending = out.write(result.out)
            if (pending) await pending
          }
          for (const line of result.err) await problems.write(line)
          if (rejects && result.reject !== undefined) await rejects.write(result.reject)
        }
        progress.done()
      }
    })
    await out.flush()
    const note = problems.note()
    if (note !== undefined) await err.write(note)
    if (io.quiet) {
      // summaries are informational
    } else if (check) await err.write(`normalize --check: ${failed === 0 ? `all ${done} canonical` : `${failed} of ${done + failed} not canonical`}`)
    else if (failed > 0) await err.write(`normalize: ${done} normalised, ${failed} failed`)
    await err.flush()
    if (rejects && rejectsStream) {
      await rejects.flush()
      await close(rejectsStream)
    }
    return failed > 0 ? EXIT.failed : EXIT.ok
  },
}
