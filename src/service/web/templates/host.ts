/** The host page: `it` is a HostView (host-view.ts) plus the shared helpers `it.h`. */
export const HOST = `<h1>Host <span class="mono"><%= it.ip %></span></h1>
<% if (it.port !== '') { %><p class="note" role="note">Only events on port <strong><%= it.port %></strong> are shown. <a href="/host/<%= encodeURIComponent(it.ip) %>">Show every port of <%= it.ip %></a></p><% } %>
<dl class="facts">
<dt>Host names</dt><dd><% if (it.names.length === 0) { %><span class="muted">none known</span><% } else { %><% it.names.forEach((name, i) => { %><% if (i > 0) { %>, <% } %><%~ include('@namelink', { name }) %><% }) %><% } %></dd>
<dt>Reverse name</dt><dd><% if (it.reverse.length === 0) { %><span class="muted">none known</span><% } else { %><%= it.reverse.join(', ') %><% } %></dd>
<dt>Network</dt><dd><% if (it.network.length === 0) { %><span class="muted">unknown</span><% } else { %><%= it.network.join(' · ') %><% } %></dd>
<dt>Location</dt><dd><% if (it.place.length === 0 && it.coordinates === '') { %><span class="muted">unknown</span><% } else { %><%= it.place.join(', ') %><% if (it.coordinates !== '') { %> <span class="muted">(<%= it.coordinates %>)</span><% } %><% } %></dd>
<dt>Events</dt><dd><%= it.findingCount %> <%= it.findingCount === 1 ? 'finding' : 'findings' %>, <%= it.serviceCount %> <%= it.serviceCount === 1 ? 'service' : 'services' %></dd>
</dl>
<% if (it.hidden > 0) { %><p class="note" role="note"><%= it.hidden %> more events are not drawn on this page (at most <%= it.h.maxRows %>); the JSON answer has all of them.</p><% } %>

<section aria-labelledby="findings">
<h2 id="findings">Findings</h2>
<% if (it.findings.length === 0) { %>
<p class="muted">No leaks are known for this host<% if (it.port !== '') { %> on port <%= it.port %><% } %>.</p>
<% } else { %>
<div class="scroll" role="region" aria-labelledby="findings-caption" tabindex="0">
<table class="events" id="findings-table">
<caption id="findings-caption"><span>Leaks found on <%= it.ip %><% if (it.port !== '') { %> port <%= it.port %><% } %>, sorted by <span class="order"><%= it.h.sortText(it.sort, it.headers) %></span>. Days open: whole days from first to last seen. Times are UTC.</span></caption>
<%~ include('@sorthead', { headers: it.headers }) %>
<tbody>
<% for (const r of it.findings) { %>
<tr class="event" id="e-<%= r.key %>" data-key="<%= r.key %>" data-r="<%= it.ranks.get(r) %>">
<td class="num"><%~ include('@port', { row: r }) %></td>
<td><%~ include('@badge', { row: r }) %></td>
<th scope="row"><% if (r.type !== '') { %><strong><%~ include('@breakable', { text: r.type }) %></strong><% if (r.stage !== '') { %> <span class="muted">(<%= r.stage %>)</span><% } %><br /><% } %><span class="summary"><%= r.summary %></span></th>
<td><%~ include('@breakable', { text: r.plugin }) %></td>
<td><%~ include('@fingerprint', { fingerprint: r.fingerprint }) %></td>
<td><%~ include('@time', { time: r.firstSeen }) %></td>
<td><%~ include('@time', { time: r.lastSeen }) %></td>
<td class="num days"><%= r.days %></td>
</tr>
<%~ include('@details', { row: r, span: 8 }) %>
<% } %>
</tbody>
</table>
</div>
<% } %>
</section>

<section aria-labelledby="services">
<h2 id="services">Services</h2>
<% if (it.services.length === 0) { %>
<p class="muted">No services are known for this host<% if (it.port !== '') { %> on port <%= it.port %><% } %>.</p>
<% } else { %>
<div class="scroll" role="region" aria-labelledby="services-caption" tabindex="0">
<table class="events" id="services-table">
<caption id="services-caption"><span>Services seen on <%= it.ip %><% if (it.port !== '') { %> port <%= it.port %><% } %>, by port. A certificate shows its issuer (self-signed: issued by its own name) and its validity, flagged when it was expired or not yet valid as the service was seen. Times are UTC.</span></caption>
<thead><tr><th scope="col">Port</th><th scope="col">Protocol</th><th scope="col">Software</th><th scope="col">TLS</th><th scope="col">Certificate</th><th scope="col">Valid</th><th scope="col">HTTP title</th><th scope="col">Last seen</th></tr></thead>
<tbody>
<% for (const r of it.services) { %>
<tr class="event" id="e-<%= r.key %>" data-key="<%= r.key %>">
<th scope="row" class="num"><%= r.port === '' ? '–' : r.port %></th>
<td><%= r.protocol %></td>
<td><%= r.software %></td>
<td><%= r.tlsVersion %></td>
<% const c = r.certificate %><td class="cert"><% if (c !== null) { %><% if (c.cn !== '') { %><%~ include('@breakable', { text: c.cn }) %><br /><% } %><% if (c.selfSigned) { %><strong class="flag">self-signed</strong><% } else if (c.issuer !== '') { %><span class="muted">issued by</span> <%= c.issuer %><% } else { %><span class="muted">issuer unknown</span><% } %><% } %></td>
<td class="validity"><% if (c !== null && (c.notBefore !== '' || c.notAfter !== '')) { %><span class="muted">from</span> <% if (c.notBefore !== '') { %><%~ include('@time', { time: c.notBefore }) %><% } else { %>?<% } %><br /><span class="muted">to</span> <% if (c.notAfter !== '') { %><%~ include('@time', { time: c.notAfter }) %><% } else { %>?<% } %><% if (c.outside !== '') { %><br /><strong class="flag"><%= c.outside %> when seen</strong><% } %><% } %></td>
<td><%= r.httpTitle %></td>
<td><%~ include('@time', { time: r.lastSeen }) %></td>
</tr>
<%~ include('@details', { row: r, span: 8 }) %>
<% } %>
</tbody>
</table>
</div>
<% } %>
</section>
<% if (it.protocols.length > 0) { %>

<section aria-labelledby="protocols">
<h2 id="protocols">Protocols</h2>
<p class="lead">What the scans read from each service's protocol, per event.</p>
<div class="protocols">
<% it.protocols.forEach((p, i) => { %>
<% p.tables.forEach((t, j) => { %>
<table class="proto" id="proto-<%= i %>-<%= t.member %>">
<caption><strong><%= t.title %></strong> on port <%= p.row.port === '' ? '–' : p.row.port %><% if (p.row.protocol !== '') { %>/<%= p.row.protocol %><% } %><% if (p.row.kind === 'leak') { %> (finding <%= p.row.plugin %>)<% } %>, last seen <%~ include('@time', { time: p.row.lastSeen }) %></caption>
<tbody>
<% if (t.rows.length === 0) { %><tr><td colspan="2" class="muted">present, with no members</td></tr><% } %>
<% for (const m of t.rows) { %><tr><th scope="row"><%= m.label %></th><td><%= m.value %></td></tr>
<% } %>
</tbody>
</table>
<% }) %>
<% }) %>
</div>
</section>
<% } %>
`
