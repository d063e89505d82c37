/** Broken: each page of GET /search starts at the last event of the page before (pages overlap by one). */
import { startFake } from '../fake/server.js'

export const meant = ['search-pages-disjoint']
export const start = () => startFake({ searchOffset: (page, size) => page * (size - 1) })
