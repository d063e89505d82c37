/** An error page: the same status and description the JSON error body would carry; the search box keeps what was typed. */
export const ERROR = `<h1><%= it.status %> <%= it.reason %></h1>
<p class="error"><%= it.description %></p>
<p><a href="/">Back to the search page</a></p>
`
