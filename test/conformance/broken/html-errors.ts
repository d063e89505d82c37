/** Broken: 400 and 404 answers are HTML error pages. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['content-type-json']
export const start = () =>
  startFake({
    error(res, status, description) {
      if (status !== 400 && status !== 404) return CORRECT.error(res, status, description)
      res.writeHead(status, { 'content-type': 'text/html' }).end(`<html><body><h1>${status}</h1><p>${description}</p></body></html>`)
    },
  })
