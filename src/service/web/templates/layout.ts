/**
 * The frame of every page. Templates are eta (autoEscape on): `<%= %>` escapes, `<%~ %>` is
 * used only for HTML these templates made themselves (the body, included partials). The markup
 * is also well-formed XML (void elements closed, no named entities), which the escaping property
 * test relies on to parse every page strictly.
 */
export const LAYOUT = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title><%= it.title %> · l9kit</title>
<link rel="stylesheet" href="<%= it.stylesheet %>" />
</head>
<body>
<header class="top">
<a class="brand" href="/">l9kit</a>
<% if (!it.bigSearch) { %>
<form class="search" action="/search" method="get" role="search">
<label for="q" class="vh">IP address or domain name</label>
<input id="q" name="q" type="search" required="required" placeholder="IP or domain" autocomplete="off" spellcheck="false" />
<button type="submit">Look up</button>
</form>
<% } %>
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
