/** Option lines of `--help` texts, laid out the one way every command's help is. */

/**
 * `  NAME  description` lines: descriptions start at `column` and wrap at 90 characters; a
 * name too long for the column gets a line of its own.
 */
export function optionLines(entries: readonly (readonly [string, string])[], column: number): string {
  const lines: string[] = []
  for (const [name, text] of entries) {
    let line = `  ${name}`
    if (line.length > column - 2) {
      lines.push(line)
      line = ''
    }
    for (const word of text.split(' ')) {
      if (line.length >= column && line.length + 1 + word.length > 90) {
        lines.push(line)
        line = ''
      }
      line = line.length < column ? `${line.padEnd(column)}${word}` : `${line} ${word}`
    }
    lines.push(line)
  }
  return lines.join('\n')
}
