import { describe, expect, it } from 'vitest'
import { guessedConverter, guessFormat, type Misfits } from '../../src/convert/index.js'
import { convertText } from '../support/golden.js'

async function guessed(text: string) {
  const guess = guessFormat(text)
  if (!guess) throw new Error('no guess')
  const misfits: Misfits = { count: 0, formats: new Map() }
  const out = await convertText(guessedConverter(guess, misfits), text)
  return { guess, misfits, ...out }
}

describe('auto: records that do not fit the guess', () => {
  it('takes the format from the first record, after comments and log lines', () => {
    expect(guessFormat('# zmap\n\n192.0.2.1,80\n')).toMatchObject({ converter: { name: 'zmap' }, line: 3 })
    expect(guessFormat('[INF] subfinder\n{"host":"a.example.com","input":"example.com","source":"crtsh"}\n')).toMatchObject({ converter: { name: 'subfinder' }, line: 2 })
  })

  it('is not swayed by a later JSON record of another shape', () => {
    const head = '{"host":"a.example.com","input":"example.com","source":"crtsh"}\n{"host":"b.example.com","a":["192.0.2.1"],"status_code":"NOERROR","url":"x"}\n'
    expect(guessFormat(head)?.converter.name).toBe('subfinder')
  })

  it('names the guess and the format that fits each stray record, and counts them', async () => {
    const { events, problems, misfits } = await guessed('192.0.2.1,80\n192.0.2.2,443\n192.0.2.3 -> [22]\n{"scan":"tcpsyn","ip":"192.0.2.4","port":22}\n')
    expect(events.map((e) => e.port)).toEqual(['80', '443'])
    expect(problems.map((p) => p.reason)).toEqual([
      "saddr '192.0.2.3 -> [22]' is not an IP address (taken as zmap from line 1; use --from rustscan to force another)",
      'not a ZMap record: no saddr (taken as zmap from line 1; use --from sx to force another)',
    ])
    expect(misfits.count).toBe(2)
  })

  it('says <format> when no format recognises the record', async () => {
    const { problems } = await guessed('{"host":"a.example.com","input":"example.com","source":"crtsh"}\n{"other":1}\n')
    expect(problems.map((p) => p.reason)).toEqual(['not a subfinder record: no source, sources or input (taken as subfinder from line 1; use --from <format> to force another)'])
  })

  it('leaves damaged records of the guessed format and log lines as they are', async () => {
    const { problems, misfits } = await guessed('{"host":"a.example.com","input":"example.com","source":"crtsh"}\n[WRN] rate limited\n{"host":"b.example.com","input":"example.com","source":"crtsh","ip":"x"}\n')
    expect(problems.map((p) => p.reason)).toEqual(['log line, not a record: [WRN] rate limited', "ip 'x' is not an IP address"])
    expect(misfits.count).toBe(0)
  })
})
