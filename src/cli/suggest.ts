/**
 * "Did you mean": the closest of a list of known words to a mistyped one (a command, an
 * option, an option's value, a `--fields` path), as git and cargo suggest. Close means at most
 * two edits (an insertion, a deletion, a substitution, or two neighbours swapped) for words of
 * five characters or more, one edit for shorter ones, and only when no other word is as
 * close; a known word the typed one starts (`--prof` for `--profile`) counts too when it is
 * the only one.
 */

/** Edits between `a` and `b` (optimal string alignment: a swap of neighbours is one edit). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = []
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i]
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j)
        continue
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1)
      row.push(best)
    }
    rows.push(row)
  }
  return rows[a.length]![b.length]!
}

/** The known word closest to `typed`, or undefined when none is close enough. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const limit = typed.length >= 5 ? 2 : 1
  let best: string | undefined
  let bestDistance = Infinity
  let tie = false
  for (const word of known) {
    const d = editDistance(typed.toLowerCase(), word.toLowerCase())
    if (d < bestDistance) {
      best = word
      bestDistance = d
      tie = false
    } else if (d === bestDistance) tie = true
  }
  // Two words equally close (v3: v1 or v2?) suggest nothing.
  if (best !== undefined && !tie && bestDistance <= limit && bestDistance < typed.length) return best
  const started = typed.length >= 2 ? known.filter((word) => word.startsWith(typed)) : []
  return started.length === 1 ? started[0] : undefined
}

/** `; did you mean 'X'?` for a close known word, else the empty string (appended to an error message). */
export function didYouMean(typed: string, known: readonly string[]): string {
  const word = closest(typed, known)
  return word === undefined ? '' : `; did you mean '${word}'?`
}
