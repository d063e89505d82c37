import { describe, expect, it } from 'vitest'
import { masscanConsole, masscanJson, masscanList, masscanNdjson } from '../../../src/convert/masscan/index.js'
import { quoteKeys } from '../../../src/convert/masscan/json.js'
import { jsonBanner, unescapeBanner } from '../../../src/convert/masscan/lines.js'
import { detectFormat } from '../../../src/convert/registry.js'
import { convertText } from '../../support/golden.js'

const STATUS_J = '{   "ip": "192.0.2.1",   "timestamp": "1700000000", "ports": [ {"port": 80, "proto": "tcp", "status": "open", "reason": "syn-ack", "ttl": 54} ] }'
const STATUS_D = '{"ip":"192.0.2.1","timestamp":"1700000000","port":80,"proto":"tcp","rec_type":"status","data":{"status":"open","reason":"syn-ack","ttl":54}}'

describe('masscan: detection (through the registry, in its order)', () => {
  it.each([
    ['masscan-json', `[\n${STATUS_J}\n]\n`],
    ['masscan-json', `${STATUS_J},\n{finished: 1}\n`],
    ['masscan-json', '{   ip: "192.0.2.1",   ports: [ {port: 80, proto: "tcp", status: "open"} ] },\n'],
    ['masscan-ndjson', `${STATUS_D}\n`],
    ['masscan-list', '#masscan\nopen tcp 80 192.0.2.1 1700000000\n'],
    ['masscan-list', 'open tcp 80 192.0.2.1 1700000000\n'],
    ['masscan-console', 'Starting masscan 1.3.2 (http://bit.ly/14GZzcT) at 2024-09-24 04:18:39 GMT\n'],
    ['masscan-console', 'Discovered open port 80/tcp on 192.0.2.1                                      \n'],
  ])('%s: %j', (name, head) => {
    expect(detectFormat(head)?.name).toBe(name)
  })
})

describe('masscan: banner escapes', () => {
  it('list/console \\xNN escapes give back the bytes, as UTF-8 when they are', () => {
    expect(unescapeBanner('Caf\\xc3\\xa9\\x0d\\x0a\\x5c')).toBe('Café\r\n\\')
    expect(unescapeBanner('bin\\xff\\x00')).toBe('binÿ\u0000') // not UTF-8: one character per byte
    expect(unescapeBanner('no escapes, 100% \\x')).toBe('no escapes, 100% \\x')
  })
  it('JSON \\u00NN byte escapes give back UTF-8 text', () => {
    expect(jsonBanner(JSON.parse('"Caf\\u00c3\\u00a9 \\u003ctitle\\u003e"'))).toBe('Café <title>')
    expect(jsonBanner('already text: ☕')).toBe('already text: ☕')
  })
})

describe('masscan JSON: framings', () => {
  it('quotes the bare member names of the oldest framing, never text inside strings', () => {
    expect(JSON.parse(quoteKeys('{ ip: "a, b: c", ports: [ {port: 80, service: {name: "x", banner: "k: v"}} ] }'))).toEqual({
      ip: 'a, b: c',
      ports: [{ port: 80, service: { name: 'x', banner: 'k: v' } }],
    })
  })

  it.each([
    ['current', `[\n${STATUS_J}\n,\n${STATUS_J.replace('80', '443')}\n]\n`],
    ['2017', `[\n${STATUS_J},\n${STATUS_J.replace('80', '443')},\n]\n`],
    ['2014', `${STATUS_J},\n${STATUS_J.replace('80', '443')},\n{finished: 1}\n`],
    ['one line', `[${STATUS_J},${STATUS_J.replace('80', '443')}]\n`],
  ])('%s framing', async (_name, text) => {
    const { events, problems } = await convertText(masscanJson, text)
    expect(problems).toEqual([])
    expect(events.map((e) => e.port)).toEqual(['80', '443'])
  })

  it('a cut final record is reported; earlier records are kept', async () => {
    const { events, problems } = await convertText(masscanJson, `[\n${STATUS_J}\n,\n${STATUS_J.slice(0, 40)}`)
    expect(events).toHaveLength(1)
    expect(problems.map((p) => p.where)).toEqual(['line 4'])
    expect(problems[0]?.reason).toMatch(/^truncated final record: /)
  })
})

describe('masscan: one result reads the same from every format', () => {
  it('status and banner records give identical events from -oJ, -oD, -oL', async () => {
    const json = `[\n${STATUS_J}\n,\n{   "ip": "192.0.2.1",   "timestamp": "1700000001", "ports": [ {"port": 80, "proto": "tcp", "service": {"name": "title", "banner": "Caf\\u00c3\\u00a9"} } ] }\n]\n`
    const ndjson = `${STATUS_D}\n{"ip":"192.0.2.1","timestamp":"1700000001","port":80,"proto":"tcp","rec_type":"banner","data":{"service_name":"title","banner":"Caf\\u00c3\\u00a9"}}\n`
    const list = '#masscan\nopen tcp 80 192.0.2.1 1700000000\nbanner tcp 80 192.0.2.1 1700000001 title Caf\\xc3\\xa9\n# end\n'
    const a = (await convertText(masscanJson, json)).events
    expect(a.map((e) => [e.summary, e.time, e.http.title])).toEqual([
      ['Discovered open port 80/tcp on 192.0.2.1', '2023-11-14T22:13:20Z', ''],
      ['Café', '2023-11-14T22:13:21Z', 'Café'],
    ])
    expect((await convertText(masscanNdjson, ndjson)).events).toEqual(a)
    expect((await convertText(masscanList, list)).events).toEqual(a)
  })

  it('console lines take the time of "Starting masscan … GMT" and skip the progress line', async () => {
    const text =
      'Starting masscan 1.3.2 (http://bit.ly/14GZzcT) at 2024-09-24 04:18:39 GMT\nInitiating SYN Stealth Scan\nrate:  0.00-kpps, 100.00% done, waiting 10-secs, found=1       \rDiscovered open port 80/tcp on 192.0.2.1          \n'
    const { events, problems } = await convertText(masscanConsole, text)
    expect(problems).toEqual([])
    expect(events.map((e) => [e.ip, e.port, e.time])).toEqual([['192.0.2.1', '80', '2024-09-24T04:18:39Z']])
  })
})
