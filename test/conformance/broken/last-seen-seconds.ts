/** Broken: `last_seen` without the millisecond fraction (`2024-03-02T11:30:00Z`). */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['subdomain-last-seen']
export const start = () =>
  startFake({ subdomains: (domain, events) => CORRECT.subdomains(domain, events).map((e) => ({ ...e, last_seen: e.last_seen.replace(/\.\d+Z$/, 'Z') })) })
