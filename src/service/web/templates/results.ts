/**
 * The search results page (`it`: a ResultsView, results-view.ts) and the table of result rows it
 * shares with the index page's latest findings (`@resultrows`: `it.rows`, `it.id`, `it.caption`).
 */
export const RESULT_ROWS = `<div class="scroll" role="region" aria-labelledby="<%= it.id %>-caption" tabindex="0">
<table class="events results" id="<%= it.id %>">
<caption id="<%= it.id %>-caption"><span><%= it.caption %> Times are UTC.</span></caption>
<thead><tr><th scope="col">Severity</th><th scope="col">Event</th><th scope="col">Plugin</th><th scope="col">Host</th><th scope="col" class="num">Port</th><th scope="col">Last seen</th></tr></thead>
<tbody>
<% for (const r of it.rows) { %>
<tr class="event" data-key="<%= r.key %>">
<td><%~ include('@badge', { row: r }) %></td>
<th scope="row"><% if (r.headline !== '') { %><strong><%~ include('@breakable', { text: r.headline }) %></strong><br /><% } %><span class="summary"><%= r.summary %></span></th>
<td><%~ include('@breakable', { text: r.plugin }) %></td>
<td><%~ include('@where', { row: r }) %></td>
<td class="num"><%= r.port === '' ? '–' : r.port %><% if (r.protocol !== '') { %>/<wbr /><%= r.protocol %><% } %></td>
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
<% if (it.error !== null) { %>
<div class="error" role="alert" id="query-error">
<p><%= it.error.message %></p>
<% if (it.error.position > 0) { %><p class="mono caret">Position <%= it.error.position %>: <code><%= it.error.before %><mark><%= it.error.term === '' ? ' ' : it.error.term %></mark><%= it.error.after %></code></p><% } %>
</div>
<% } else if (it.rows.length === 0) { %>
<p class="muted" id="no-results"><%= it.page === 0 ? 'Nothing stored matches this query.' : 'No more results: this page is past the last one.' %></p>
<% } else { %>
<%~ include('@resultrows', { rows: it.rows, id: 'results-table', caption: 'Results ' + (it.page * it.h.pageSize + 1) + ' to ' + (it.page * it.h.pageSize + it.rows.length) + ', newest first (by last seen). Each links to its host page.' }) %>
<% } %>
<% if (it.error === null && (it.page > 0 || it.more)) { %>
<nav class="pages" aria-label="Result pages">
<% if (it.page > 0) { %><a rel="prev" href="/search?q=<%= it.h.enc(it.q) %>&amp;scope=<%= it.scope %>&amp;page=<%= it.page - 1 %>">Previous page</a><% } %>
<span>Page <%= it.page + 1 %></span>
<% if (it.more) { %><a rel="next" href="/search?q=<%= it.h.enc(it.q) %>&amp;scope=<%= it.scope %>&amp;page=<%= it.page + 1 %>">Next page</a><% } %>
</nav>
<% } %>
`
