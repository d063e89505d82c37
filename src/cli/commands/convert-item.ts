/**
 * What `l9kit convert` writes for one converted item (an event or a problem): shared by the
 * command's own loop and by its worker threads (`--jobs`), so both write the same bytes.
 */
import { isProblem, isSkip, type Output } from '../../convert/index.js'
import type { Event } from '../../schema/index.js'
import type { Problem } from '../../convert/types.js'
import type { Issue } from '../../validate/issue.js'
import { guarded } from '../../jsonl/index.js'
import { printable } from '../../validate/printable.js'

/** One item's output: a line for stdout, or a message for stderr (a skipped item). */
export type ItemOutput = { out: string } | { err: string }

/**
 * The output of one item from input `name`. `event` is the 1-based number of the item among
 * the events so far (for messages); `label` writes it (the worker threads write a marker
 * that the main thread replaces by the number in the whole input).
 */
export function convertItem(item: Event | Problem, name: string, output: Output, event: number, label: (n: number) => string = String): ItemOutput {
  if (isProblem(item)) {
    // XML problems carry an element path as well as a line: name both.
    const path = item.where.startsWith('/') ? ` ${item.where}:` : ''
    return { err: `${printable(`${name}:${item.line ?? item.where}:${path} ${item.reason}`)}${item.stack ? `\n${item.stack}` : ''}` }
  }
  const text = guarded<ReturnType<Output['format']> | Issue>(() => output.format(item), (issue) => issue)
  // (The label is left as it is: a worker's is a marker the main thread fills in.)
  if (typeof text === 'object' && 'code' in text) return { err: `${printable(`${name}: event `)}${label(event)}${printable(`: ${text.message}`)}${text.stack ? `\n${text.stack}` : ''}` }
  if (isSkip(text)) return { err: `${printable(`${name}: event `)}${label(event)}${printable(`${item.ip || item.host ? ` (${item.ip || item.host})` : ''}: ${text.skip}`)}` }
  // JsonlWriter ends every line in `\n`; CSV rows end in `\r\n`.
  return { out: output.eol === '\r\n' ? `${text}\r` : text }
}
