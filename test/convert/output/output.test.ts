import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvField, csvOutput, hostportOutput, humanText, isSkip, UnknownColumnError, urlOutput } from '../../../src/convert/output/index.js'
import { emptyEvent, type Event } from '../../../src/schema/index.js'

const event = (patch: (e: Event) => void): Event => {
  const e = emptyEvent()
  patch(e)
  return e
}

describe('hostport output', () => {
  it('writes ip:port, brackets IPv6, falls back to the host, skips events without a port', () => {
    expect(hostportOutput.format(event((e) => Object.assign(e, { ip: '192.0.2.1', port: '80' })))).toBe('192.0.2.1:80')
    expect(hostportOutput.format(event((e) => Object.assign(e, { ip: '2001:db8::1', port: '443' })))).toBe('[2001:db8::1]:443')
    expect(hostportOutput.format(event((e) => Object.assign(e, { host: 'a.example.com', port: '8080' })))).toBe('a.example.com:8080')
    expect(hostportOutput.format(event((e) => Object.assign(e, { ip: '192.0.2.1' })))).toEqual({ skip: 'no port to write' })
    expect(hostportOutput.format(emptyEvent())).toEqual({ skip: 'no ip or host to write' })
  })
})

describe('url output', () => {
  it("follows the format's URL rule", () => {
    const https = event((e) => Object.assign(e, { host: 'a.example.com', ip: '192.0.2.1', port: '443', transport: ['tcp', 'tls', 'http'], http: { ...e.http, url: '/admin' } }))
    expect(urlOutput.format(https)).toBe('https://a.example.com/admin')
    expect(urlOutput.format(event((e) => Object.assign(e, { ip: '2001:db8::1', port: '8080', transport: ['tcp', 'http'] })))).toBe('http://[2001:db8::1]:8080')
    expect(urlOutput.format(event((e) => Object.assign(e, { ip: '192.0.2.1', port: '22', transport: ['tcp'] })))).toBe('192.0.2.1:22')
    expect(isSkip(urlOutput.format(emptyEvent()))).toBe(true)
  })
})

describe('human output', () => {
  it('writes a block with the parts that are set', () => {
    const e = event((x) => {
      Object.assign(x, { event_type: 'leak', event_source: 'nuclei', event_pipeline: ['nuclei', 'l9kit'], ip: '192.0.2.1', host: 'a.example.com', port: '443', transport: ['tcp', 'tls', 'http'], protocol: 'https' })
      x.time = '2024-01-01T00:00:00.5Z'
      x.leak.severity = 'high'
      x.leak.type = 'rce'
      x.leak.stage = 'open'
      x.summary = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')
    })
    const text = humanText(e)
    expect(text.split('\n')[0]).toBe('leak 192.0.2.1:443 (a.example.com) 2024-01-01T00:00:00.5Z')
    expect(text).toContain('  url:         https://a.example.com')
    expect(text).toContain('  leak:        high rce (open)')
    expect(text).toContain('… 4 more lines')
    expect(text).not.toContain('ssh:')
    expect(text.endsWith('\n')).toBe(true)
  })
})

/** A minimal RFC 4180 reader, to check that what we write reads back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else field += c
  }
  return rows
}

describe('csv output', () => {
  it('quotes fields with commas, quotes, CR or LF (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    expect(csvField('cr\r')).toBe('"cr\r"')
  })

  it('writes the chosen columns: lists joined with commas, the header map as JSON', () => {
    const out = csvOutput(['ip', 'port', 'transport', 'http.header', 'http.status', 'ssl.certificate.cn', 'service.software.modules'])
    const e = event((x) => {
      Object.assign(x, { ip: '192.0.2.1', port: '443', transport: ['tcp', 'tls'] })
      x.http.header = { server: 'nginx' }
      x.http.status = 200
      x.service.software.modules = [{ name: 'PHP', version: '8.1', fingerprint: '' }, { name: 'HSTS', version: '', fingerprint: '' }]
    })
    expect(out.header!()).toBe('ip,port,transport,http.header,http.status,ssl.certificate.cn,service.software.modules')
    expect(out.format(e)).toBe('192.0.2.1,443,"tcp,tls","{""server"":""nginx""}",200,,"PHP/8.1,HSTS"')
    expect(out.eol).toBe('\r\n')
  })

  it('refuses an unknown column, naming the valid ones', () => {
    expect(() => csvOutput(['ip', 'nope'])).toThrow(UnknownColumnError)
    expect(() => csvOutput(['nope'])).toThrow(/ssl\.certificate\.cn/)
  })

  it('property: every raw field reads back unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é') }), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const text = rows.map((r) => `${r.map((f) => csvField(f, true)).join(',')}\r\n`).join('')
        // A lone row with one empty field is written as an empty line: RFC 4180 cannot tell it apart.
        const expected = rows.map((r) => (r.length === 1 && r[0] === '' ? [''] : r))
        expect(parseCsv(text)).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })
})
