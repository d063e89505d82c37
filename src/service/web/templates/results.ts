/**
 * The search results page (`it`: a ResultsView, results-view.ts) and the table of result rows it
 * shares with the index page's latest findings (`@resultrows`: `it.rows`, `it.id`, `it.caption`).
 */
export const RESULT_ROWS = `<div class="scroll" role="region" aria-labelledby="<%= it.id %>-caption" tabindex="0">
<table class="events results" id="<%= it.id %>">
<caption id="<%= it.id %>-caption"><span><%= it.caption %> Times are UTC.</span></caption>
<thead><tr><th scope="col">Host</th><th scope="col" class="num">Port</th><% if (it.leaks) { %><th scope="col">Severity</th><% } %><th scope="col"><%= it.leaks ? 'Event' : 'Service' %></th><th scope="col">Plugin</th><th scope="col">Last seen</th></tr></thead>
<tbody>
<% for (const r of it.rows) { %>
<tr class="event" data-key="<%= r.key %>">
<th scope="row"><% if (r.ip === '' && !(r.host !== '' && it.h.isName(r.host))) { %><span class="muted">unknown</span><% } %><%~ include('@where', { row: r }) %></th>
<td class="num"><%~ include('@port', { row: r }) %></td>
<% if (it.leaks) { %><td><%~ include('@badge', { row: r }) %></td>
<% } %><td><% if (r.headline !== '') { %><strong><%~ include('@breakable', { text: r.headline }) %></strong><br /><% } %><span class="summary"><%= r.summary %></span></td>
<td><%~ include('@breakable', { text: r.plugin }) %></td>
<td><%~ include('@time', { time: r.time }) %></td>
</tr>
<% } %>
</tbody>
</table>
</div>
`

export const RESULTS = `<h1>Search <%= it.scope === 'leak' ? 'leaks' : 'services' %></h1>
<p class="lead">Query: <code class="query"><%= it.q %></code></p>
<% if (it.notes && it.notes.length > 0) { %>
<div class="notice" role="note" id="query-notes">
<% for (const note of it.notes) { %><p><%= note %></p><% } %>
</div>
<% } %>
<% if (it.error === null && it.total !== null) { %><p id="total"><strong><%= it.total %></strong> <%= it.total === 1 ? (it.scope === 'leak' ? 'leak matches' : 'service matches') : (it.scope === 'leak' ? 'leaks match' : 'services match') %>.</p><% } else if (it.error === null) { %><p class="muted" id="total">Not counted: <%= it.uncounted %></p><% } %>
<% if (it.error === null && it.facets.some((f) => f.values.length > 0)) { %>
<nav class="facets" aria-labelledby="facets-heading">
<h2 id="facets-heading" class="vh">Narrow the search</h2>
<% for (const f of it.facets) { %><% if (f.values.length > 0) { %>
<section class="facet" aria-labelledby="facet-<%= f.name %>"><h3 id="facet-<%= f.name %>"><%= f.label %></h3>
<ul>
<% for (const v of f.values) { %><li><a href="/search?q=<%= it.h.enc(v.q) %>&amp;scope=<%= it.scope %>"><%~ include('@breakable', { text: v.label }) %></a> <span class="count"><%= v.count %><span class="vh"> <%= v.count === 1 ? 'match' : 'matches' %></span></span></li>
<% } %></ul>
</section>
<% } %><% } %>
</nav>
<% } %>
<% if (it.error !== null) { %>
<div class="error" role="alert" id="query-error">
<p><%= it.error.message %></p>
<% if (it.error.position > 0) { %><p class="mono caret">Position <%= it.error.position %>: <code><%= it.error.before %><mark><%= it.error.term === '' ? ' ' : it.error.term %></mark><%= it.error.after %></code></p><% } %>
</div>
<% } else if (it.rows.length === 0) { %>
<p class="muted" id="no-results"><%= it.page === 0 ? 'Nothing stored matches this query.' : 'No more results: this page is past the last one.' %></p>
<% } else { %>
<%~ include('@resultrows', { rows: it.rows, leaks: it.scope === 'leak', id: 'results-table', caption: 'Results ' + (it.page * it.h.pageSize + 1) + ' to ' + (it.page * it.h.pageSize + it.rows.length) + (it.total === null ? '' : ' of ' + it.total) + ', newest first (by last seen). Each links to its host page.' }) %>
<% } %>
<% if (it.error === null && (it.page > 0 || it.more)) { %>
<nav class="pages" aria-label="Result pages">
<% if (it.page > 0) { %><a rel="prev" href="/search?q=<%= it.h.enc(it.q) %>&amp;scope=<%= it.scope %>&amp;page=<%= it.page - 1 %>">Previous page</a><% } %>
<span>Page <%= it.page + 1 %></span>
<% if (it.more) { %><a rel="next" href="/search?q=<%= it.h.enc(it.q) %>&amp;scope=<%= it.scope %>&amp;page=<%= it.page + 1 %>">Next page</a><% } %>
</nav>
<% } %>
`
