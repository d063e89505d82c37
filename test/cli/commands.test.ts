/** The command list the program knows before loading any command matches the commands themselves. */
import { describe, expect, it } from 'vitest'
import { commands } from '../../src/cli/commands/index.js'

describe('command list', () => {
  it("names and summaries are the loaded commands' own", async () => {
    for (const entry of commands) {
      const command = await entry.load()
      expect(command.name).toBe(entry.name)
      expect(command.summary).toBe(entry.summary)
    }
  })

  it('has no name twice', () => {
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length)
  })
})
