/** `normalize` on a worker thread: counts are [normalised, failed]; streams stdout, stderr, --rejects. */
import type { Options } from '../../../normalize/context.js'
import { normalizeLine, normalizeOutput } from '../../commands/normalize-record.js'
import type { JobFactory } from '../types.js'

export interface NormalizeJobSettings {
  options: Options
  showWarnings: boolean
  /** --check: name the records that are not canonical, write no documents. */
  check: boolean
  rejects: boolean
}

export const create: JobFactory = (setup) => {
  const settings = setup.settings as NormalizeJobSettings
  return {
    line(item, out) {
      const result = normalizeOutput(normalizeLine(item, settings.options), setup.file, settings)
      out.counts[result.ok ? 0 : 1]!++
      if (result.out !== undefined) out.streams[0]!.push(result.out)
      for (const line of result.err) out.streams[1]!.push(line)
      if (settings.rejects && result.reject !== undefined) out.streams[2]!.push(result.reject)
    },
  }
}
