/**
 * Rendering pages with eta: the templates are compiled once, on first use; every `<%= %>`
 * goes through eta's escaping (& < > " ' become entities), which is what keeps event text
 * (raw banners, titles, anything a scanned host sent) from ever becoming markup.
 */
import { Eta } from 'eta/core'
import type { DomainView } from './domain-view.js'
import type { HostView } from './host-view.js'
import { MAX_ROWS } from './host-view.js'
import { canonicalDomain } from '../names/domain.js'
import { PAGE_SIZE, type ResultRow, type ResultsView } from './results-view.js'
import { severityClass } from './rows.js'
import { SCRIPT_HREF } from './script.js'
import type { Sort, SortHeader } from './sort.js'
import { STYLESHEET_HREF } from './stylesheet.js'
import { DOMAIN } from './templates/domain.js'
import { ERROR } from './templates/error.js'
import { HOST } from './templates/host.js'
import { INDEX } from './templates/index-page.js'
import { LAYOUT, SEARCH_FORM } from './templates/layout.js'
import { BADGE, BREAKABLE, DETAILS, FINGERPRINT, HOST_LINK, NAME_LINK, PORT, SORT_HEAD, TIME, WHERE } from './templates/parts.js'
import { RESULT_ROWS, RESULTS } from './templates/results.js'

/** A leak count of the index page. */
export interface SeverityCount {
  word: string
  rank: number
  count: number
  /** The search of these leaks (`+severity:high`; `-severity:*` for none). */
  query: string
}

/** A plugin of the index page: its counts, and the search that lists its events. */
export interface PluginRow {
  name: string
  count1h: number
  count24h: number
  count7d: number
  query: string
  scope: 'leak' | 'service'
}

export interface IndexView {
  counts: SeverityCount[]
  leaks: number
  events: number
  /** The newest leaks (by last seen). */
  latest: ResultRow[]
  /** Plugins with events in the last 7 days, most first (at most 10). */
  plugins: PluginRow[]
  /** Plugins known at all. */
  pluginsKnown: number
}

/** What the search box holds: the text typed (or the page's subject) and the scope. */
export interface Box {
  q: string
  scope: string
}

const EMPTY_BOX: Box = { q: '', scope: 'leak' }

export interface ErrorView {
  status: number
  reason: string
  description: string
}

/** Helpers the templates call as `it.h.…`. */
const HELPERS = {
  severityClass,
  maxRows: MAX_ROWS,
  pageSize: PAGE_SIZE,
  /** encodeURIComponent that cannot throw: a lone surrogate (possible in event text) becomes U+FFFD first. */
  enc: (text: string): string => encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')),
  /**
   * `2024-01-15T08:00:00.123Z` → [`2024-01-15`, `08:00 UTC`] (stored times are UTC; the full value
   * is in the title): drawn as two parts that do not break inside, so a narrow column puts the
   * clock under the date rather than breaking the date at a hyphen. [text, ''] for another form.
   */
  timeParts: (time: string): [string, string] => (time.length >= 16 && time.endsWith('Z') ? [time.slice(0, 10), `${time.slice(11, 16)} UTC`] : [time, '']),
  /** Whether a row's host is a host name (with a domain page), not an address or other text. */
  isName: (host: string): boolean => canonicalDomain(host) === host,
  /**
   * A word cut where a line may break (the template puts `<wbr />` between the parts): after
   * `:` `/` `.` `_` `-`, and between a lower-case letter and an upper-case one (`Elasticsearch|Open|Plugin`).
   * So an IPv6 address or a long plugin name wraps at a sensible place instead of widening the table.
   */
  breakParts: (text: string): string[] => text.split(/(?<=[:/._-])|(?<=[a-z])(?=[A-Z])/),
  /** The caption's words for the current sort (the same the page's script writes). */
  sortText: (sort: Sort, headers: SortHeader[]): string => {
    const header = headers.find((h) => h.key === sort.key)
    return header === undefined ? sort.key : sort.dir === 'asc' ? header.asc : header.desc
  },
}

let engine: Eta | undefined

function eta(): Eta {
  if (engine !== undefined) return engine
  const e = new Eta({ autoEscape: true, cache: true, useWith: false })
  const templates: [string, string][] = [
    ['@layout', LAYOUT],
    ['@host', HOST],
    ['@domain', DOMAIN],
    ['@index', INDEX],
    ['@error', ERROR],
    ['@badge', BADGE],
    ['@port', PORT],
    ['@time', TIME],
    ['@fingerprint', FINGERPRINT],
    ['@sorthead', SORT_HEAD],
    ['@details', DETAILS],
    ['@hostlink', HOST_LINK],
    ['@breakable', BREAKABLE],
    ['@namelink', NAME_LINK],
    ['@where', WHERE],
    ['@searchform', SEARCH_FORM],
    ['@results', RESULTS],
    ['@resultrows', RESULT_ROWS],
  ]
  for (const [name, text] of templates) e.loadTemplate(name, text)
  engine = e
  return e
}

/** A whole page: `body` rendered from its template, inside the layout. */
function page(template: string, data: object, title: string, apiPath: string, box: Box, bigSearch = false, rawBase = ''): string {
  const e = eta()
  const body = e.render(template, { ...data, box, h: HELPERS, rawBase })
  return e.render('@layout', { title, body, apiPath, box, bigSearch, stylesheet: STYLESHEET_HREF, script: SCRIPT_HREF })
}

export const renderHost = (view: HostView, apiPath: string): string =>
  page('@host', view, `Host ${view.ip}`, apiPath, { q: view.port === '' ? view.ip : view.ip.includes(':') ? `[${view.ip}]:${view.port}` : `${view.ip}:${view.port}`, scope: 'leak' }, false, `/raw/host/${encodeURIComponent(view.ip)}/`)
export const renderDomain = (view: DomainView, apiPath: string): string =>
  page('@domain', view, `Domain ${view.domain}`, apiPath, { q: view.domain, scope: 'leak' }, false, `/raw/domain/${encodeURIComponent(view.domain)}/`)
export const renderIndex = (view: IndexView): string => page('@index', view, 'Search', '/search?q=*&scope=leak', EMPTY_BOX, true)
export const renderResults = (view: ResultsView, apiPath: string): string =>
  page('@results', view, `Search ${view.q}`, apiPath, { q: view.q, scope: view.scope })
/** An error page; `box` keeps what was typed (or the path's subject) in the search box. */
export const renderError = (view: ErrorView, apiPath: string, box: Box = EMPTY_BOX): string => page('@error', view, `${view.status} ${view.reason}`, apiPath, box)
