/**
 * The HTTP server on node:http (no framework: the hot path is a prefix match, a Map lookup and
 * one write, and the target is ≥ 0.90 of a bare node:http server; see docs/service.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ServiceContext } from './context.js'
import { handleIngest } from './ingest.js'
import { handleLookup } from './lookups.js'
import { handleHookApi } from './hook-api.js'
import { handleLivePlain, upgradeHandler } from './live.js'
import { handlePlugins } from './plugins.js'
import { handleBulk } from './bulk.js'
import { handleSearch } from './search.js'
import { handleSearchCount } from './search-count.js'
import { failed, rawError, READ_METHODS, sendError, sendMethodNotAllowed, shown, VARY_ACCEPT } from './reply.js'
import { matchRoute, ROUTES_TEXT } from './route.js'
import { handlePage, handleWeb, searchPage, wantsPage } from './pages.js'
import { apiPathOf, sendHtmlError } from './send-html.js'
import { noteRequest } from '../ingest/slices.js'
import { keepTickObjectClasses } from './tick-maps.js'

// At load, before anything of the service runs (and before any full garbage collection): tick-maps.ts.
keepTickObjectClasses()

/** The request handler: every answer is JSON, whatever happens, except the web view's pages for browsers (../web). */
export function createHandler(ctx: ServiceContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    noteRequest()
    try {
      // A browser's /search is the web view's search page, before any API route of that address.
      if (req.url?.startsWith('/search') === true && searchPage(ctx, req, res)) return
      const target = matchRoute(req.url ?? '/')
      if (target === null) {
        if (handleWeb(ctx, req, res)) return
        // The index page's path takes GET and HEAD (the web view; JSON clients get its 404).
        if (req.method !== 'GET' && req.method !== 'HEAD' && (req.url === '/' || req.url?.startsWith('/?') === true)) return sendMethodNotAllowed(res, req.method, '/', READ_METHODS, VARY_ACCEPT)
        // A browser gets the web view's 404 page, anything else JSON: the answer varies by accept.
        if (wantsPage(req)) return sendHtmlError(req, res, 404, `There is no page at ${shown(apiPathOf(req))}.`)
        return sendError(res, 404, `No such route; routes are ${ROUTES_TEXT}.`, VARY_ACCEPT)
      }
      const route = target.route
      // The lookups first (the hot path); /host and /domain are the web view's pages for a browser.
      if (route === 'host' || route === 'domain') return wantsPage(req) ? handlePage(ctx, req, res, route, target.param) : handleLookup(ctx, req, res, route, target.param)
      if (route === 'subdomains') return handleLookup(ctx, req, res, route, target.param)
      if (target.route === 'ingest') return handleIngest(ctx, req, res)
      if (route === 'resources' || route === 'hooks') return handleHookApi(ctx, req, res, route, target.param)
      if (route === 'plugins') return handlePlugins(ctx, req, res, target.param)
      if (route === 'live') return handleLivePlain(req, res)
      if (route === 'bulk') return handleBulk(ctx, req, res, target.param)
      if (route === 'count') return handleSearchCount(ctx, req, res)
      // A browser's /search is the web view's (pages.ts); anything else gets JSON.
      if (route === 'search') return wantsPage(req) && handleWeb(ctx, req, res) ? undefined : handleSearch(ctx, req, res)
    } catch (error) {
      if (!res.headersSent) sendError(res, 500, failed('Unexpected failure', error), varies(req.url) ? VARY_ACCEPT : undefined)
      else res.destroy()
    }
  }
}

/** Whether the answer to `url` depends on accept (/host and /domain: the web view), a failure's too. */
function varies(url: string | undefined): boolean {
  const route = matchRoute(url ?? '/')?.route
  return route === 'host' || route === 'domain' || route === 'search'
}

/** A node:http server for the service; requests the HTTP parser rejects still get a JSON answer. */
export function createServiceServer(ctx: ServiceContext): Server {
  const server = createServer({ keepAliveTimeout: 5_000 }, createHandler(ctx))
  // The live stream (WebSocket): every upgrade request comes here, the others' answered 404.
  server.on('upgrade', upgradeHandler(ctx))
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [status, description] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request line or headers are too large.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request took too long to arrive.']
          : [400, `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`]
    socket.end(rawError(status, description))
  })
  return server
}
