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
<caption id="subdomains-caption"><span>Names below <%= it.domain %>, most recently seen first.</span></caption>
<thead><tr><th scope="col">Subdomain</th><th scope="col" class="num">Distinct IPs</th><th scope="col">Hosts</th><th scope="col">Last seen</th></tr></thead>
<tbody>
<% for (const s of it.subdomains) { %>
<tr>
<th scope="row"><a href="/domain/<%= encodeURIComponent(s.name) %>"><%= s.name %></a></th>
<td class="num"><%= s.distinctIps %></td>
<td><% for (const ip of s.ips) { %><%~ include('@hostlink', { ip }) %> <% } %></td>
<td><%~ include('@time', { time: s.lastSeen }) %></td>
</tr>
<% } %>
</tbody>
</table>
</div>
<% } %>
<% if (it.subdomainsHidden > 0) { %><p class="note" role="note">The <%= it.planName %> plan shows at most <%= it.subdomainCap %> subdomains; <%= it.subdomainsHidden %> more are not shown.</p><% } %>
</section>

<section aria-labelledby="by-host">
<h2 id="by-host">Events by host</h2>
<% if (it.groups.length === 0) { %>
<p class="muted">No events are known for <%= it.domain %>.</p>
<% } %>
<% it.groups.forEach((g, i) => { %>
<section class="group" aria-labelledby="g<%= i %>">
<h3 id="g<%= i %>"><a href="/domain/<%= encodeURIComponent(g.host) %>"><%= g.host %></a></h3>
<p class="ips">Hosts: <% if (g.ips.length === 0) { %><span class="muted">no IP known</span><% } %><% for (const ip of g.ips) { %><%~ include('@hostlink', { ip }) %> <% } %></p>
<div class="scroll" role="region" aria-labelledby="g<%= i %>-caption" tabindex="0">
<table class="events">
<caption id="g<%= i %>-caption"><span>Events of <%= g.host %>, sorted by <%= it.h.sortText(it.sort, it.headers) %>.</span></caption>
<%~ include('@sorthead', { headers: it.headers }) %>
<tbody>
<% for (const r of g.rows) { %>
<tr class="event" id="e-<%= r.key %>" data-key="<%= r.key %>">
<td><%~ include('@badge', { row: r }) %></td>
<th scope="row"><% if (r.kind === 'leak' && r.type !== '') { %><strong><%~ include('@breakable', { text: r.type }) %></strong><br /><% } %><% if (r.kind === 'service' && r.software !== '') { %><strong><%= r.software %></strong><br /><% } %><span class="summary"><%= r.summary %></span></th>
<td><%~ include('@breakable', { text: r.plugin }) %></td>
<td class="num"><%= r.port === '' ? '–' : r.port %><% if (r.protocol !== '') { %>/<wbr /><%= r.protocol %><% } %></td>
<td><% if (r.ip !== '') { %><%~ include('@hostlink', { ip: r.ip }) %><% } %></td>
<td><%~ include('@fingerprint', { fingerprint: r.fingerprint }) %></td>
<td><%~ include('@time', { time: r.firstSeen }) %></td>
<td><%~ include('@time', { time: r.lastSeen }) %></td>
<td class="num days"><%= r.days %></td>
</tr>
<%~ include('@details', { row: r, span: 9 }) %>
<% } %>
</tbody>
</table>
</div>
</section>
<% }) %>
</section>
`
