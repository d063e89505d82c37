/**
 * The pages' one script, served at /static/l9kit.js: sorting a table in the page. Progressive
 * enhancement: a column header is still a link that sorts on the server (`?sort=…&dir=…`); with
 * the script, a plain click reorders the rows already in the page instead (no request, so no
 * rate limit spent), sets `aria-sort`, the arrow, the caption's words and the links' next
 * direction, and puts the sort in the address (history.replaceState) so a reload or a shared
 * link shows the same order. The order comes from the ranks the server wrote on each row
 * (`data-r`, sort.ts sortRanks), so it is exactly the server's. Like the stylesheet, its link
 * carries a hash of the text and it is cached for a year.
 */
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'

const JS = `'use strict';
(function () {
  function ranks(tr) { return tr.getAttribute('data-r').split(' ').map(Number); }
  // Each tbody is sorted on its own (the domain page: one per host name); rows before the first
  // ranked row stay first (a group's heading), a row without ranks follows the row above it.
  function sortTable(table, col, sign) {
    for (var b = 0; b < table.tBodies.length; b++) {
      var body = table.tBodies[b], units = [], rows = Array.prototype.slice.call(body.rows);
      for (var i = 0; i < rows.length; i++) {
        var tr = rows[i];
        if (tr.hasAttribute('data-r')) units.push({ r: ranks(tr), rows: [tr] });
        else if (units.length > 0) units[units.length - 1].rows.push(tr);
      }
      units.sort(function (x, y) { return sign * (x.r[col + 1] - y.r[col + 1]) || x.r[0] - y.r[0]; });
      for (var u = 0; u < units.length; u++) for (var k = 0; k < units[u].rows.length; k++) body.appendChild(units[u].rows[k]);
    }
  }
  function withDir(href, dir) { var url = new URL(href); url.searchParams.set('dir', dir); return url.pathname + url.search; }
  document.addEventListener('click', function (ev) {
    if (ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    var link = ev.target instanceof Element ? ev.target.closest('a[data-sort]') : null;
    var th = link && link.closest('th'), table = link && link.closest('table');
    if (!th || !table) return;
    ev.preventDefault();
    var dir = th.getAttribute('aria-sort') === 'ascending' ? 'desc' : 'asc';
    sortTable(table, th.cellIndex, dir === 'asc' ? 1 : -1);
    history.replaceState(null, '', withDir(link.href, dir));
    var heads = th.parentNode.children;
    for (var i = 0; i < heads.length; i++) {
      var h = heads[i], a = h.querySelector('a[data-sort]');
      if (!a) continue;
      var on = h === th;
      if (on) h.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending'); else h.removeAttribute('aria-sort');
      a.querySelector('.arrow').textContent = on ? (dir === 'asc' ? ' \\u25b2' : ' \\u25bc') : '';
      a.querySelector('.hint').textContent = on ? '' : ' (sort)';
      a.setAttribute('href', withDir(a.href, on && dir === 'asc' ? 'desc' : 'asc'));
    }
    var words = table.querySelector('caption .order');
    if (words) words.textContent = link.getAttribute(dir === 'asc' ? 'data-asc' : 'data-desc');
  });
})();
`

export const SCRIPT = Buffer.from(JS, 'utf8')
export const SCRIPT_GZIP = gzipSync(SCRIPT, { level: 9 })
/** Strong validator for conditional requests, and the cache-busting `?v=` of the link. */
export const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('hex').slice(0, 12)
export const SCRIPT_PATH = '/static/l9kit.js'
export const SCRIPT_HREF = `${SCRIPT_PATH}?v=${SCRIPT_HASH}`
