/** Broken: a domain longer than 200 characters crashes the handler (500). */
import { send, startFake } from '../fake/server.js'

export const meant = ['no-5xx']
export const start = () =>
  startFake({
    intercept(res, route, param) {
      if (route === 'host' || param.length <= 200) return false
      send(res, 500, { title: 'Internal Server Error', description: 'index key too long' })
      return true
    },
  })
