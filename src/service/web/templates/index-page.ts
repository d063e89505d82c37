/**
 * The index page: a search box, the latest findings, the most-seen plugins and the stored leaks
 * by severity. `it`: an IndexView (render.ts).
 */
export const INDEX = `<h1>Look up a host, a domain, or search</h1>
<%~ include('@searchform', { box: it.box, big: true }) %>

<section aria-labelledby="latest">
<h2 id="latest">Latest findings</h2>
<% if (it.latest.length === 0) { %>
<p class="muted">No leak is stored yet.</p>
<% } else { %>
<%~ include('@resultrows', { rows: it.latest, leaks: true, id: 'latest-table', caption: 'The ' + it.latest.length + ' most recently seen leaks.' }) %>
<p><a href="/search?q=*&amp;scope=leak">All leaks, newest first</a></p>
<% } %>
</section>

<section aria-labelledby="plugins">
<h2 id="plugins">Most-seen plugins</h2>
<% if (it.plugins.length === 0) { %>
<p class="muted">No plugin has events from the last 7 days<% if (it.pluginsKnown > 0) { %> (<%= it.pluginsKnown %> <%= it.pluginsKnown === 1 ? 'plugin is' : 'plugins are' %> known from older events)<% } %>.</p>
<% } else { %>
<div class="scroll" role="region" aria-labelledby="plugins-caption" tabindex="0">
<table id="plugins-table" class="counts">
<caption id="plugins-caption"><span>Plugins by events seen in the last 7 days (by event time), most first.</span></caption>
<thead><tr><th scope="col">Plugin</th><th scope="col" class="num">Last hour</th><th scope="col" class="num">Last 24 hours</th><th scope="col" class="num">Last 7 days</th></tr></thead>
<tbody>
<% for (const p of it.plugins) { %>
<tr><th scope="row"><a href="/search?q=<%= it.h.enc(p.query) %>&amp;scope=<%= p.scope %>"><%~ include('@breakable', { text: p.name === '' ? '(none)' : p.name }) %></a></th><td class="num"><%= p.count1h %></td><td class="num"><%= p.count24h %></td><td class="num"><%= p.count7d %></td></tr>
<% } %>
</tbody>
</table>
</div>
<% } %>
</section>

<section aria-labelledby="severity">
<h2 id="severity">Leaks by severity</h2>
<p class="lead"><%= it.leaks %> <%= it.leaks === 1 ? 'leak' : 'leaks' %> among <%= it.events %> stored <%= it.events === 1 ? 'event' : 'events' %>.</p>
<table id="severity-table" class="counts">
<caption>Stored leaks by severity; each links to the search of those leaks</caption>
<thead><tr><th scope="col">Severity</th><th scope="col" class="num">Leaks</th></tr></thead>
<tbody>
<% for (const c of it.counts) { %>
<tr><th scope="row"><a class="sev-link" href="/search?q=<%= it.h.enc(c.query) %>&amp;scope=leak"><span class="sev sev-<%= it.h.severityClass(c.rank) %>"><%= c.word === '' ? 'none' : c.word %></span><span class="vh"> leaks</span></a></th><td class="num"><a href="/search?q=<%= it.h.enc(c.query) %>&amp;scope=leak"><%= c.count %><span class="vh"> <%= c.word === '' ? 'leaks without a severity' : c.word + ' leaks' %></span></a></td></tr>
<% } %>
</tbody>
</table>
</section>
`
