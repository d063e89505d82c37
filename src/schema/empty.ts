/** The canonical empty event: every member present with its empty value, in canonical order. */
import type { Event } from './event.js'

export const ZERO_TIME = '0001-01-01T00:00:00Z'

/** A fresh empty event (a new object each call, so callers may fill it in place). */
export function emptyEvent(): Event {
  return {
    event_type: '',
    event_source: '',
    event_pipeline: [],
    event_fingerprint: '',
    ip: '',
    host: '',
    reverse: '',
    port: '',
    mac: '',
    vendor: '',
    transport: [],
    protocol: '',
    http: { root: '', url: '', status: 0, length: 0, header: {}, title: '', favicon_hash: '' },
    summary: '',
    time: ZERO_TIME,
    ssl: {
      detected: false,
      enabled: false,
      jarm: '',
      cypher_suite: '',
      version: '',
      certificate: {
        cn: '',
        domain: [],
        fingerprint: '',
        key_algo: '',
        key_size: 0,
        issuer_name: '',
        not_before: ZERO_TIME,
        not_after: ZERO_TIME,
        valid: false,
      },
    },
    ssh: { fingerprint: '', version: 0, banner: '', motd: '' },
    service: {
      credentials: { noauth: false, username: '', password: '', key: '', raw: null },
      software: { name: '', version: '', os: '', modules: null, fingerprint: '' },
    },
    leak: {
      stage: '',
      type: '',
      severity: '',
      dataset: { rows: 0, files: 0, size: 0, collections: 0, infected: false, ransom_notes: null },
    },
    tags: [],
    geoip: {
      continent_name: '',
      region_iso_code: '',
      city_name: '',
      country_iso_code: '',
      country_name: '',
      region_name: '',
      location: { lat: 0, lon: 0 },
    },
    network: { organization_name: '', asn: 0, network: '' },
  }
}

/** Severities, most severe first (facts.md). */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
/** Leak stages (facts.md). */
export const STAGES = ['open', 'explore', 'exfiltrate'] as const
