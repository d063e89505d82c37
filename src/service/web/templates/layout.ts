/**
 * The frame of every page. Templates are eta (autoEscape on): `<%= %>` escapes, `<%~ %>` is
 * used only for HTML these templates made themselves (the body, included partials). The markup
 * is also well-formed XML (void elements closed, no named entities), which the escaping property
 * test relies on to parse every page strictly. `it.box` is what the search box holds: what was
 * typed (kept on results and error pages, 429 too) or the page's subject.
 */
export const LAYOUT = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title><%= it.title %> · l9kit</title>
<link rel="stylesheet" href="<%= it.stylesheet %>" />
<script src="<%= it.script %>" defer="defer"></script>
</head>
<body>
<header class="top">
<a class="brand" href="/">l9kit</a>
<% if (!it.bigSearch) { %><%~ include('@searchform', { box: it.box, big: false }) %><% } %>
</header>
<main>
<%~ it.body %>
</main>
<footer>
<p>API clients get JSON from the same address: <code>curl -H 'accept: application/json' <%= it.apiPath %></code></p>
</footer>
</body>
</html>
`

/**
 * `it.box` ({q, scope}), `it.big`: the search form. It takes an address, `ip:port`, a URL, a
 * domain name or a query (src/service/web/search-box.ts); the scope is for queries.
 */
export const SEARCH_FORM = `<form class="search<%= it.big ? ' big' : '' %>" action="/search" method="get" role="search">
<label for="q"<% if (!it.big) { %> class="vh"<% } %>>IP, domain, URL or query</label>
<span class="row"><input id="q" name="q" type="search" required="required" value="<%= it.box.q %>" placeholder="<%= it.big ? '192.0.2.1, example.com, a URL or a query' : 'IP, domain, URL or query' %>" autocomplete="off" spellcheck="false" />
<label for="scope" class="vh">Search</label><select id="scope" name="scope"><option value="leak"<% if (it.box.scope !== 'service') { %> selected="selected"<% } %>>leaks</option><option value="service"<% if (it.box.scope === 'service') { %> selected="selected"<% } %>>services</option></select>
<button type="submit">Search</button></span>
</form>
`
