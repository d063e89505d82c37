import { describe, expect, it } from 'vitest'
import { addSource, addTag, eventUrl, hasSource, hasTag, hasTransport, removeTransport } from '../../src/event/index.js'
import { emptyEvent, type Event } from '../../src/schema/index.js'

const event = (patch: Partial<Omit<Event, 'http'>> & { http?: Partial<Event['http']> } = {}): Event => {
  const base = emptyEvent()
  return { ...base, ...patch, http: { ...base.http, ...patch.http } }
}

describe('sources', () => {
  it('addSource appends to the pipeline without de-duplicating and sets event_source', () => {
    const e = event({ event_source: 'a', event_pipeline: ['a'] })
    addSource(e, 'b')
    addSource(e, 'b')
    expect(e.event_pipeline).toEqual(['a', 'b', 'b'])
    expect(e.event_source).toBe('b')
  })
  it('hasSource looks through the pipeline', () => {
    const e = event({ event_pipeline: ['masscan', 'http'] })
    expect(hasSource(e, 'masscan')).toBe(true)
    expect(hasSource(e, 'nuclei')).toBe(false)
  })
  it('tolerates the null arrays of lenient documents', () => {
    const e = { event_source: '', event_pipeline: null, tags: null, transport: null } as unknown as Event
    expect(hasSource(e, 'x')).toBe(false)
    addSource(e, 'x')
    expect(e.event_pipeline).toEqual(['x'])
    expect(hasTag(e, 't')).toBe(false)
    addTag(e, 't')
    expect(e.tags).toEqual(['t'])
    expect(hasTransport(e, 'tcp')).toBe(false)
  })
})

describe('tags and transport', () => {
  it('addTag de-duplicates; hasTag finds', () => {
    const e = event()
    addTag(e, 'honeypot')
    addTag(e, 'honeypot')
    addTag(e, 'cdn')
    expect(e.tags).toEqual(['honeypot', 'cdn'])
    expect(hasTag(e, 'cdn')).toBe(true)
    expect(hasTag(e, 'CDN')).toBe(false)
  })
  it('removeTransport removes every occurrence; hasTransport finds', () => {
    const e = event({ transport: ['tcp', 'tls', 'http', 'tls'] })
    expect(hasTransport(e, 'tls')).toBe(true)
    removeTransport(e, 'tls')
    expect(e.transport).toEqual(['tcp', 'http'])
    expect(hasTransport(e, 'tls')).toBe(false)
  })
})

describe('eventUrl', () => {
  it('uses https with tls, dropping port 443 only', () => {
    expect(eventUrl(event({ host: 'example.com', port: '443', transport: ['tcp', 'tls', 'http'] }))).toBe('https://example.com')
    expect(eventUrl(event({ host: 'example.com', port: '8443', transport: ['tcp', 'tls', 'http'] }))).toBe('https://example.com:8443')
  })
  it('uses http without tls, dropping port 80 only', () => {
    expect(eventUrl(event({ ip: '192.0.2.1', port: '80', transport: ['tcp', 'http'] }))).toBe('http://192.0.2.1')
    expect(eventUrl(event({ ip: '192.0.2.1', port: '443', transport: ['tcp', 'http'] }))).toBe('http://192.0.2.1:443')
  })
  it('prefers host over ip, and brackets IPv6', () => {
    expect(eventUrl(event({ host: 'a.example', ip: '192.0.2.1', port: '80', transport: ['http'] }))).toBe('http://a.example')
    expect(eventUrl(event({ ip: '2001:db8::1', port: '8080', transport: ['http'] }))).toBe('http://[2001:db8::1]:8080')
  })
  it('has no scheme without http (host:port)', () => {
    expect(eventUrl(event({ ip: '2001:db8::1', port: '22', transport: ['tcp'] }))).toBe('[2001:db8::1]:22')
    expect(eventUrl(event({ ip: '192.0.2.1', port: '' }))).toBe('192.0.2.1')
  })
  it('adds http.url if longer than one character, else http.root if longer than one character', () => {
    const web = { host: 'h', port: '80', transport: ['http'] }
    expect(eventUrl(event({ ...web, http: { url: '/admin', root: '/app' } }))).toBe('http://h/admin')
    expect(eventUrl(event({ ...web, http: { url: '/', root: '/app' } }))).toBe('http://h/app')
    expect(eventUrl(event({ ...web, http: { url: '/', root: '/' } }))).toBe('http://h')
    expect(eventUrl(event({ ...web, http: { url: '', root: '' } }))).toBe('http://h')
  })
})
