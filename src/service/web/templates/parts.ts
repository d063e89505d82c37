/** Pieces shared by the pages: a severity badge, a seen time, a fingerprint, a sortable header row, the link to an event's JSON. */

/**
 * `it.row`: a finding or service row's severity: a badge with the word (colour is never the only
 * sign). A service has no severity: a dash, said in words to a screen reader (the row's event
 * cell says it is a service), never a badge that would read as a severity.
 */
export const BADGE = `<% const r = it.row %><% if (r.kind === 'leak') { %><span class="sev sev-<%= it.h.severityClass(r.severityRank) %>"><%= r.severity === '' ? 'none' : r.severity %></span><% } else { %><span class="muted" aria-hidden="true">–</span><span class="vh">no severity: a service</span><% } %>`

/** `it.row`: the port, and the protocol after a place to break (`443/https`); a dash without a port. */
export const PORT = `<% const r = it.row %><%= r.port === '' ? '–' : r.port %><% if (r.protocol !== '') { %>/<wbr /><%= r.protocol %><% } %>`

/** `it.time`: canonical time text, shown to the minute with its zone (`2024-01-15 08:00 UTC`), whole value on hover and in datetime. */
export const TIME = `<% const [date, clock] = it.h.timeParts(it.time) %><time datetime="<%= it.time %>" title="<%= it.time %>"><span class="nw"><%= date %></span><% if (clock !== '') { %> <span class="nw"><%= clock %></span><% } %></time>`

/** `it.fingerprint`: the first 12 hex digits, all 64 on hover. */
export const FINGERPRINT = `<% if (it.fingerprint === '') { %><span class="muted">none</span><% } else { %><code title="<%= it.fingerprint %>"><%= it.fingerprint.slice(0, 12) %>…</code><% } %>`

/**
 * `it.headers`: the column headers, each a link that sorts by it (on the server), and that the
 * page's script (script.ts) turns into sorting in the page: `data-sort`, and the caption's
 * words for each direction. The arrow and the "(sort)" hint are always there, maybe empty, so
 * the script only changes their text.
 */
export const SORT_HEAD = `<thead><tr>
<% for (const c of it.headers) { %><th scope="col"<% if (c.key === 'port' || c.key === 'days') { %> class="num"<% } %><% if (c.ariaSort !== '') { %> aria-sort="<%= c.ariaSort %>"<% } %>><a href="<%= c.href %>" data-sort="<%= c.key %>" data-asc="<%= c.asc %>" data-desc="<%= c.desc %>"><%= c.label %><span class="arrow" aria-hidden="true"><%= c.arrow === '' ? '' : ' ' + c.arrow %></span><span class="vh hint"><%= c.ariaSort === '' ? ' (sort)' : '' %></span></a></th><% } %>
</tr></thead>
`

/**
 * `it.row`, `it.span`, `it.rawBase`: the row under an event's row, linking to its full JSON. The
 * JSON is fetched only when followed: drawn inside every row, it was nearly all of a page's bytes.
 */
export const DETAILS = `<tr class="more"><td colspan="<%= it.span %>"><a href="<%= it.rawBase %><%= it.row.key %>">Full event (JSON)<span class="vh"> of event <%= it.row.key %></span></a></td></tr>
`

/** `it.text`: a word that may wrap at the places breakParts() finds (each part escaped). */
export const BREAKABLE = `<% it.h.breakParts(it.text).forEach((part, i) => { %><% if (i > 0) { %><wbr /><% } %><%= part %><% }) %>`

/** `it.ip`: a link to the host page of an address, never broken across lines (class `addr`: `white-space: nowrap`). */
export const HOST_LINK = `<a class="mono addr" href="/host/<%= encodeURIComponent(it.ip) %>"><%= it.ip %></a>`

/** `it.name`: a link to the domain page of a host name (it may wrap after its dots). */
export const NAME_LINK = `<a href="/domain/<%= encodeURIComponent(it.name) %>"><%~ include('@breakable', { text: it.name }) %></a>`

/** `it.row`: where an event is: its address (host page) and its host name (domain page), as known. */
export const WHERE = `<% const r = it.row %><% if (r.ip !== '') { %><%~ include('@hostlink', { ip: r.ip }) %><% } %><% if (r.host !== '' && r.host !== r.ip && it.h.isName(r.host)) { %><% if (r.ip !== '') { %><br /><% } %><%~ include('@namelink', { name: r.host }) %><% } %>`
