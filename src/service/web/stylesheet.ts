/**
 * The pages' one stylesheet, served at /static/l9kit.css. Its link carries a hash of the text
 * (`?v=…`), so it can be cached for a year: a changed stylesheet has a new address.
 */
import { createHash } from 'node:crypto'
import { gzipSync } from 'node:zlib'

const CSS = `:root{--fg:#1a1d21;--muted:#4b5563;--line:#d6dae0;--soft:#f4f6f8;--link:#1d4ed8;--accent:#0f3d66;
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:#fff}
*{box-sizing:border-box}
body{margin:0}
main,footer{max-width:88rem;margin:0 auto;padding:0 1rem}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,.scroll:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.6rem 1rem;background:var(--accent)}
.top .brand{color:#fff;font-weight:700;font-size:1.15rem;text-decoration:none;margin-right:auto}
.search{display:flex;gap:.4rem;flex-wrap:wrap;align-items:center}
.search input{font:inherit;padding:.35rem .5rem;border:1px solid var(--line);border-radius:4px;min-width:0;width:20rem;max-width:100%}
.search select{font:inherit;padding:.3rem;border:1px solid var(--line);border-radius:4px;background:#fff}
.search .row{display:flex;gap:.4rem}
.search button{font:inherit;padding:.35rem .8rem;border:1px solid #0b2e4d;border-radius:4px;background:#fff;color:var(--accent);cursor:pointer}
.search.big{display:block;margin:1rem 0 2rem;max-width:42rem}
table.counts{width:auto;min-width:18rem}
.search.big label{display:block;font-weight:600;margin-bottom:.3rem}
.search.big .row{display:flex;gap:.4rem}
.search.big input{flex:1;width:auto;font-size:1.1rem}
.search.big button{background:var(--accent);color:#fff}
h1{font-size:1.5rem;margin:1.2rem 0 .6rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.8rem 0 .5rem;border-bottom:2px solid var(--line);padding-bottom:.2rem}
h3{font-size:1.05rem;margin:1.4rem 0 .3rem;overflow-wrap:anywhere}
.mono,code,pre{font-family:ui-monospace,"SF Mono",Menlo,Consolas,monospace;font-size:.9em}
.muted{color:var(--muted)}
.lead{color:var(--muted)}
.note{background:#fff7e6;border-left:4px solid #b45309;padding:.4rem .7rem}
.error{font-size:1.1rem;overflow-wrap:anywhere}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0}
.facts dt{font-weight:600}
.facts dd{margin:0;overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;position:relative}
table{border-collapse:collapse;width:100%;margin:.3rem 0 1rem}
caption{text-align:left;color:var(--muted);padding:.3rem 0;caption-side:top}
/* In a scroll region the caption is as wide as its table: its text stays in view. */
caption>span{display:block;position:sticky;left:0;max-width:calc(100vw - 1.5rem)}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
thead th{background:var(--soft);white-space:nowrap;border-bottom:2px solid var(--line)}
thead th.num{text-align:right}
thead th a{color:inherit;text-decoration:none}
thead th a:hover{text-decoration:underline}
thead th[aria-sort]{background:#e3e8ee}
tbody th{font-weight:400}
.num{text-align:right;font-variant-numeric:tabular-nums}
td code{white-space:nowrap}
.summary{display:block;min-width:10rem;max-width:28rem;overflow-wrap:anywhere;color:var(--muted);font-size:.92em}
tr.event>*{border-bottom:0}
tr.more td{padding:0 .5rem .4rem}
tr.more a{font-size:.88em}
.addr,.nw{white-space:nowrap}
tr.group>th{background:var(--soft);font-weight:600;padding-top:.6rem;border-bottom:1px solid var(--line)}
tr.group .ips{font-weight:400;color:var(--muted)}
tbody.group+tbody.group tr.group>th{border-top:2px solid var(--line)}
.protocols{display:flex;flex-wrap:wrap;gap:0 1.5rem;align-items:flex-start}
table.proto{width:auto;max-width:100%;min-width:16rem}
table.proto td{overflow-wrap:anywhere}
table.proto caption{color:var(--fg)}
.pages{display:flex;gap:1rem;align-items:center;margin:.5rem 0 1rem}
.caret mark{background:#fde68a;color:inherit;outline:1px solid #b45309}
code.query{overflow-wrap:anywhere}
.sev{display:inline-block;min-width:4.6rem;text-align:center;padding:.05rem .45rem;border-radius:3px;font-size:.82em;font-weight:600;text-transform:uppercase;letter-spacing:.02em;color:#fff}
.sev-critical{background:#9f1239}
.sev-high{background:#b42318}
.sev-medium{background:#92400e}
.sev-low{background:#1e40af}
.sev-info{background:#374151}
.sev-other{background:#fff;color:#1a1d21;border:1px solid #6b7280}
.sev-none{background:#fff;color:#4b5563;border:1px dashed #6b7280}
.kind{font-size:.85em;font-weight:600;color:var(--muted)}
.flag{color:#9f1239}
a.sev-link{text-decoration:none}
.facets{display:flex;flex-wrap:wrap;gap:.3rem 2rem;margin:.3rem 0 .8rem}
.facet h3{font-size:.95rem;margin:.2rem 0}
.facet ul{list-style:none;margin:0;padding:0}
.facet li{display:flex;gap:.8rem;justify-content:space-between;min-width:9rem;font-size:.92em}
.facet .count{color:var(--muted);font-variant-numeric:tabular-nums}
footer{color:var(--muted);font-size:.85em;margin-top:2rem;padding-bottom:1.5rem;border-top:1px solid var(--line)}
footer code{overflow-wrap:anywhere}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
@media (max-width:40rem){main,footer{padding:0 .6rem}.top{padding:.5rem .6rem}.search input{width:9.5rem}.facts{grid-template-columns:1fr}.facts dd{margin-bottom:.3rem}.facets{display:block}.facet ul{display:flex;flex-wrap:wrap;gap:0 1rem}.facet li{min-width:0;gap:.3rem}}
`

export const STYLESHEET = Buffer.from(CSS, 'utf8')
export const STYLESHEET_GZIP = gzipSync(STYLESHEET, { level: 9 })
/** Strong validator for conditional requests, and the cache-busting `?v=` of the link. */
export const STYLESHEET_HASH = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12)
export const STYLESHEET_PATH = '/static/l9kit.css'
export const STYLESHEET_HREF = `${STYLESHEET_PATH}?v=${STYLESHEET_HASH}`
