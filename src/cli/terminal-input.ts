/**
 * Standard input that is a terminal, passed on unchanged, with a hint written once the
 * command starts reading it: a person who ran `l9kit validate` without a FILE sees why
 * nothing happens instead of a silent wait (commands that never read standard input, such
 * as `serve` without `--load -`, say nothing).
 */
import { Readable } from 'node:stream'

/** `stdin`'s data as a stream of its own; `onFirstRead` runs when it is first read. */
export function terminalInput(stdin: Readable, onFirstRead: () => void): Readable {
  let started = false
  const input: Readable = new Readable({
    read() {
      if (!started) {
        started = true
        onFirstRead()
        stdin.on('data', (chunk: Buffer) => {
          if (!input.push(chunk)) stdin.pause()
        })
        stdin.once('end', () => input.push(null))
        stdin.once('error', (error) => input.destroy(error))
      }
      stdin.resume()
    },
    destroy(error, done) {
      // A command that stops early (an error, Ctrl-C) must not leave the terminal being read:
      // a flowing terminal keeps the process alive after the command has ended.
      stdin.pause()
      stdin.removeAllListeners('data')
      done(error)
    },
  })
  return input
}
