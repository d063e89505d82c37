/** Pieces shared by the pages: a severity badge, a seen time, a fingerprint, a sortable header row, an event's details. */

/** `it.row`: a finding or service row. A service shows the word "service"; colour is never the only sign. */
export const BADGE = `<% const r = it.row %><% if (r.kind === 'leak') { %><span class="sev sev-<%= it.h.severityClass(r.severityRank) %>"><%= r.severity === '' ? 'none' : r.severity %></span><% } else { %><span class="sev sev-service">service</span><% } %>`

/** `it.time`: canonical time text, shown to the second, whole value on hover and in datetime. */
export const TIME = `<time datetime="<%= it.time %>" title="<%= it.time %>"><%= it.h.shortTime(it.time) %></time>`

/** `it.fingerprint`: the first 12 hex digits, all 64 on hover. */
export const FINGERPRINT = `<% if (it.fingerprint === '') { %><span class="muted">none</span><% } else { %><code title="<%= it.fingerprint %>"><%= it.fingerprint.slice(0, 12) %>…</code><% } %>`

/** `it.headers`: the column headers, each a link that sorts by it. */
export const SORT_HEAD = `<thead><tr>
<% for (const c of it.headers) { %><th scope="col"<% if (c.key === 'port' || c.key === 'days') { %> class="num"<% } %><% if (c.ariaSort !== '') { %> aria-sort="<%= c.ariaSort %>"<% } %>><a href="<%= c.href %>"><%= c.label %><% if (c.arrow !== '') { %> <span aria-hidden="true"><%= c.arrow %></span><% } %><% if (c.ariaSort === '') { %><span class="vh"> (sort)</span><% } %></a></th><% } %>
</tr></thead>
`

/** `it.row`, `it.span`, `it.rawBase`: the row under an event's row that opens its full JSON, and links to it raw. */
export const DETAILS = `<tr class="more"><td colspan="<%= it.span %>"><details><summary>Full event<span class="vh"> <%= it.row.key %></span></summary>
<pre><%= it.row.pretty %></pre>
<p><a href="<%= it.rawBase %><%= it.row.key %>">Raw JSON<span class="vh"> of event <%= it.row.key %></span></a></p>
</details></td></tr>
`

/** `it.ip`: a link to the host page of an address. */
export const HOST_LINK = `<a class="mono" href="/host/<%= encodeURIComponent(it.ip) %>"><%= it.ip %></a>`
