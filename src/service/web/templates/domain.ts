/** The domain page: `it` is a DomainView (domain-view.ts) plus the shared helpers `it.h`. */
export const DOMAIN = `<h1>Domain <span class="mono"><%= it.domain %></span></h1>
<p class="lead"><%= it.events %> <%= it.events === 1 ? 'event' : 'events' %> (<%= it.leaks %> <%= it.leaks === 1 ? 'leak' : 'leaks' %>) on <%= it.groups.length %> <%= it.groups.length === 1 ? 'host name' : 'host names' %>; <%= it.subdomains.length + it.subdomainsHidden %> <%= it.subdomains.length + it.subdomainsHidden === 1 ? 'subdomain' : 'subdomains' %>.</p>
<% if (it.hidden > 0) { %><p class="note" role="note"><%= it.hidden %> more events are not drawn on this page (at most <%= it.h.maxRows %>); the JSON answer has all of them.</p><% } %>

<section aria-labelledby="subdomains">
<h2 id="subdomains">Subdomains</h2>
<% if (it.subdomains.length === 0) { %>
<p class="muted">No names below <%= it.domain %> are known.</p>
<% } else { %>
<div class="scroll" role="region" aria-labelledby="subdomains-caption" tabindex="0">
<table id="subdomains-table">
<caption id="subdomains-caption"><span>Names below <%= it.domain %>, most recently seen first. Times are UTC.</span></caption>
<thead><tr><th scope="col">Subdomain</th><th scope="col" class="num">Distinct IPs</th><th scope="col">Hosts</th><th scope="col">Last seen</th></tr></thead>
<tbody>
<% for (const s of it.subdomains) { %>
<tr>
<th scope="row"><a href="/domain/<%= encodeURIComponent(s.name) %>"><%= s.name %></a></th>
<td class="num"><%= s.distinctIps %></td>
<td class="ips"><% s.ips.forEach((ip, j) => { %><% if (j > 0) { %>, <% } %><%~ include('@hostlink', { ip }) %><% }) %></td>
<td><%~ include('@time', { time: s.lastSeen }) %></td>
</tr>
<% } %>
</tbody>
</table>
</div>
<% } %>
<% if (it.subdomainsHidden > 0) { %><p class="note" role="note" id="subdomains-note">This table lists <%= it.subdomains.length %> of the <%= it.subdomains.length + it.subdomainsHidden %> names below <%= it.domain %>, the most recently seen: the <%= it.planName %> plan's subdomain list holds at most <%= it.subdomainCap %>. The events of all of them are under <a href="#by-host">Events by host</a>.</p><% } %>
</section>

<section aria-labelledby="by-host">
<h2 id="by-host">Events by host</h2>
<% if (it.groups.length === 0) { %>
<p class="muted">No events are known for <%= it.domain %>.</p>
<% } else { %>
<div class="scroll" role="region" aria-labelledby="events-caption" tabindex="0">
<table class="events" id="events-table">
<caption id="events-caption"><span>Events of <%= it.domain %> and the names below it, grouped by host name, sorted by <span class="order"><%= it.h.sortText(it.sort, it.headers) %></span>. Times are UTC.</span></caption>
<%~ include('@sorthead', { headers: it.headers }) %>
<% it.groups.forEach((g, i) => { %>
<tbody class="group" id="g<%= i %>">
<tr class="group"><th colspan="9" scope="rowgroup"><span class="name"><%~ include('@namelink', { name: g.host }) %></span> <span class="ips">on <% if (g.ips.length === 0) { %><span class="muted">no IP known</span><% } %><% g.ips.forEach((ip, j) => { %><% if (j > 0) { %>, <% } %><%~ include('@hostlink', { ip }) %><% }) %></span></th></tr>
<% for (const r of g.rows) { %>
<tr class="event" id="e-<%= r.key %>" data-key="<%= r.key %>" data-r="<%= it.ranks.get(r) %>">
<td><% if (r.ip !== '') { %><%~ include('@hostlink', { ip: r.ip }) %><% } %></td>
<td class="num"><%~ include('@port', { row: r }) %></td>
<td><%~ include('@badge', { row: r }) %></td>
<th scope="row"><% if (r.kind === 'leak' && r.type !== '') { %><strong><%~ include('@breakable', { text: r.type }) %></strong><br /><% } %><% if (r.kind === 'service') { %><span class="kind">Service</span><% if (r.software !== '') { %> <strong><%= r.software %></strong><% } %><br /><% } %><span class="summary"><%= r.summary %></span></th>
<td><%~ include('@breakable', { text: r.plugin }) %></td>
<td><%~ include('@fingerprint', { fingerprint: r.fingerprint }) %></td>
<td><%~ include('@time', { time: r.firstSeen }) %></td>
<td><%~ include('@time', { time: r.lastSeen }) %></td>
<td class="num days"><%= r.days %></td>
</tr>
<%~ include('@details', { row: r, span: 9 }) %>
<% } %>
</tbody>
<% }) %>
</table>
</div>
<% } %>
</section>
`
