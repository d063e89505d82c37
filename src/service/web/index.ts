/** The web view: HTML pages per host and domain, for browsers (see docs/service.md, "Web view"). */
export { daysOpen } from './days-open.js'
export { handlePage, handleWeb, wantsPage } from './pages.js'
export { STYLESHEET_HREF, STYLESHEET_PATH } from './stylesheet.js'
