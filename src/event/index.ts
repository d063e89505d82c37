/**
 * Helpers on event documents, with the behaviour of the original library's helpers
 * (docs/specification.md). The mutating ones change the event in place, as the original's do; they
 * accept `null` arrays (lenient documents) and replace them with arrays.
 */
import type { Event } from '../schema/index.js'

type Lists = Pick<Event, 'event_pipeline' | 'event_source' | 'tags' | 'transport'>

/** Appends `name` to `event_pipeline` (no de-duplication) and makes it the `event_source`. */
export function addSource<E extends Lists>(event: E, name: string): E {
  event.event_pipeline = [...(event.event_pipeline ?? []), name]
  event.event_source = name
  return event
}

/** True when `name` is in `event_pipeline` (any step of the pipeline, the producer included). */
export function hasSource(event: Pick<Event, 'event_pipeline'>, name: string): boolean {
  return (event.event_pipeline ?? []).includes(name)
}

/** Adds `tag` unless it is already there. */
export function addTag<E extends Pick<Event, 'tags'>>(event: E, tag: string): E {
  const tags = event.tags ?? []
  event.tags = tags.includes(tag) ? tags : [...tags, tag]
  return event
}

export function hasTag(event: Pick<Event, 'tags'>, tag: string): boolean {
  return (event.tags ?? []).includes(tag)
}

export function hasTransport(event: Pick<Event, 'transport'>, transport: string): boolean {
  return (event.transport ?? []).includes(transport)
}

/** Removes every occurrence of `transport`. */
export function removeTransport<E extends Pick<Event, 'transport'>>(event: E, transport: string): E {
  event.transport = (event.transport ?? []).filter((t) => t !== transport)
  return event
}

type UrlParts = Pick<Event, 'host' | 'ip' | 'port' | 'transport'> & { http: Pick<Event['http'], 'url' | 'root'> }

/**
 * URL of an event. Host part: `host`, else `ip` (IPv6 in brackets). A scheme only when the
 * transport has `http`: `https` when it also has `tls` (port added unless 443), else `http`
 * (port added unless 80). Without `http` there is no scheme and the port is always added
 * (`host:port`; our choice, facts.md is silent). Path: `http.url` if longer than one
 * character, else `http.root` if longer than one character, else nothing.
 */
export function eventUrl(event: UrlParts): string {
  const address = event.host !== '' ? event.host : event.ip.includes(':') && !event.ip.startsWith('[') ? `[${event.ip}]` : event.ip
  let url: string
  if (hasTransport(event, 'http')) {
    const tls = hasTransport(event, 'tls')
    const defaultPort = tls ? '443' : '80'
    url = `${tls ? 'https' : 'http'}://${address}${event.port === '' || event.port === defaultPort ? '' : `:${event.port}`}`
  } else {
    url = event.port === '' ? address : `${address}:${event.port}`
  }
  const path = (event.http?.url ?? '').length > 1 ? event.http.url : (event.http?.root ?? '').length > 1 ? event.http.root : ''
  return url + path
}
