/** The lookup API's response shapes: lookup result, subdomain entries, error body. */
import Type, { type Static } from 'typebox'
import { Event } from './event.js'
import { TIME_MILLIS } from './patterns.js'

const events = (title: string, description: string) =>
  Type.Union([Type.Array(Event), Type.Null()], { title, description })

export const LookupResult = Type.Object(
  {
    Services: events('Services', 'Service events; null when no information was found.'),
    Leaks: events('Leaks', 'Leak events; null when no information was found.'),
  },
  { title: 'Lookup result', description: 'Answer of the domain and host lookups.' },
)

export const SubdomainEntry = Type.Object(
  {
    subdomain: Type.String({ title: 'Subdomain', description: 'Fully qualified subdomain name.', minLength: 1 }),
    distinct_ips: Type.Integer({ title: 'Distinct IPs', description: 'Number of distinct IP addresses seen for it.', minimum: 0 }),
    last_seen: Type.String({ title: 'Last seen', description: 'UTC time with exactly three fraction digits and `Z`.', pattern: TIME_MILLIS }),
  },
  { title: 'Subdomain entry', description: 'A subdomain known for a domain.' },
)

export const Subdomains = Type.Array(SubdomainEntry, {
  title: 'Subdomains',
  description: 'Answer of the subdomains lookup; no order is promised.',
})

export const ErrorBody = Type.Object(
  {
    title: Type.String({ title: 'Title', description: 'Short name of the error, such as `Bad Request`.' }),
    description: Type.String({ title: 'Description', description: 'What went wrong and how to fix it.' }),
  },
  { title: 'Error', description: 'Body of every non-200 answer of the reference service.' },
)

export type LookupResult = Static<typeof LookupResult>
export type SubdomainEntry = Static<typeof SubdomainEntry>
export type ErrorBody = Static<typeof ErrorBody>
