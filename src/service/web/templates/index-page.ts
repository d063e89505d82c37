/** The index page: a search box and the stored leaks by severity. `it.counts`: [{word, rank, count}]. */
export const INDEX = `<h1>Look up a host or a domain</h1>
<form class="search big" action="/search" method="get" role="search">
<label for="q">IP address or domain name</label>
<span class="row"><input id="q" name="q" type="search" required="required" placeholder="192.0.2.1 or example.com" autocomplete="off" spellcheck="false" />
<button type="submit">Look up</button></span>
</form>

<section aria-labelledby="severity">
<h2 id="severity">Leaks by severity</h2>
<p class="lead"><%= it.leaks %> <%= it.leaks === 1 ? 'leak' : 'leaks' %> among <%= it.events %> stored <%= it.events === 1 ? 'event' : 'events' %>.</p>
<table id="severity-table" class="counts">
<caption>Stored leaks by severity</caption>
<thead><tr><th scope="col">Severity</th><th scope="col" class="num">Leaks</th></tr></thead>
<tbody>
<% for (const c of it.counts) { %>
<tr><th scope="row"><span class="sev sev-<%= it.h.severityClass(c.rank) %>"><%= c.word === '' ? 'none' : c.word %></span></th><td class="num"><%= c.count %></td></tr>
<% } %>
</tbody>
</table>
</section>
`
