/**
 * Rendering pages with eta: the templates are compiled once, on first use; every `<%= %>`
 * goes through eta's escaping (& < > " ' become entities), which is what keeps event text
 * (raw banners, titles, anything a scanned host sent) from ever becoming markup.
 */
import { Eta } from 'eta/core'
import type { DomainView } from './domain-view.js'
import type { HostView } from './host-view.js'
import { MAX_ROWS } from './host-view.js'
import { severityClass } from './rows.js'
import type { Sort, SortHeader } from './sort.js'
import { STYLESHEET_HREF } from './stylesheet.js'
import { DOMAIN } from './templates/domain.js'
import { ERROR } from './templates/error.js'
import { HOST } from './templates/host.js'
import { INDEX } from './templates/index-page.js'
import { LAYOUT } from './templates/layout.js'
import { BADGE, BREAKABLE, DETAILS, FINGERPRINT, HOST_LINK, SORT_HEAD, TIME } from './templates/parts.js'

/** A leak count of the index page. */
export interface SeverityCount {
  word: string
  rank: number
  count: number
}

export interface IndexView {
  counts: SeverityCount[]
  leaks: number
  events: number
}

export interface ErrorView {
  status: number
  reason: string
  description: string
}

/** Helpers the templates call as `it.h.…`. */
const HELPERS = {
  severityClass,
  maxRows: MAX_ROWS,
  /** `2024-01-15T08:00:00.123Z` → `2024-01-15 08:00` (UTC; the full value is in the title). */
  shortTime: (time: string): string => (time.length >= 16 ? `${time.slice(0, 10)} ${time.slice(11, 16)}` : time),
  /**
   * A word cut where a line may break (the template puts `<wbr />` between the parts): after
   * `:` `/` `.` `_` `-`, and between a lower-case letter and an upper-case one (`Elasticsearch|Open|Plugin`).
   * So an IPv6 address or a long plugin name wraps at a sensible place instead of widening the table.
   */
  breakParts: (text: string): string[] => text.split(/(?<=[:/._-])|(?<=[a-z])(?=[A-Z])/),
  sortText: (sort: Sort, headers: SortHeader[]): string => {
    const label = headers.find((h) => h.key === sort.key)?.label.toLowerCase() ?? sort.key
    const words: Record<string, [string, string]> = {
      severity: ['least severe first', 'most severe first'],
      first: ['oldest first', 'newest first'],
      last: ['oldest first', 'newest first'],
      days: ['fewest first', 'most first'],
      port: ['lowest first', 'highest first'],
    }
    const [asc, desc] = words[sort.key] ?? ['A to Z', 'Z to A']
    return `${label}, ${sort.dir === 'asc' ? asc : desc}`
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
    ['@time', TIME],
    ['@fingerprint', FINGERPRINT],
    ['@sorthead', SORT_HEAD],
    ['@details', DETAILS],
    ['@hostlink', HOST_LINK],
    ['@breakable', BREAKABLE],
  ]
  for (const [name, text] of templates) e.loadTemplate(name, text)
  engine = e
  return e
}

/** A whole page: `body` rendered from its template, inside the layout. */
function page(template: string, data: object, title: string, apiPath: string, bigSearch = false, rawBase = ''): string {
  const e = eta()
  const body = e.render(template, { ...data, h: HELPERS, rawBase })
  return e.render('@layout', { title, body, apiPath, bigSearch, stylesheet: STYLESHEET_HREF })
}

export const renderHost = (view: HostView, apiPath: string): string =>
  page('@host', view, `Host ${view.ip}`, apiPath, false, `/raw/host/${encodeURIComponent(view.ip)}/`)
export const renderDomain = (view: DomainView, apiPath: string): string =>
  page('@domain', view, `Domain ${view.domain}`, apiPath, false, `/raw/domain/${encodeURIComponent(view.domain)}/`)
export const renderIndex = (view: IndexView): string => page('@index', view, 'Search', '/host/IP', true)
export const renderError = (view: ErrorView, apiPath: string): string => page('@error', view, `${view.status} ${view.reason}`, apiPath)
