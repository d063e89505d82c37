/**
 * Protected demo (as Redis's protected mode): the built-in default serves publicly printed
 * demo keys, admin token included, so without `--config` `serve` listens on loopback only.
 */
import { isIP } from 'node:net'
import { UsageError } from './command.js'

/** True for an address only this machine can reach: 127.0.0.0/8, ::1 (also IPv4-mapped), `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h
  if (isIP(v4) === 4) return v4.startsWith('127.')
  if (isIP(h) === 6) return /^(?:0{0,4}:){2,7}0{0,3}1$|^::1$/.test(h)
  return false
}

/** Throws a usage error (exit 2) saying why and how when demo keys would be served off loopback. */
export function refuseDemoOffLoopback(host: string): void {
  if (isLoopbackHost(host)) return
  throw new UsageError(
    `serve: refusing to listen on ${host} with the built-in demo keys: they are printed in the docs, admin token ` +
      'included, so anyone who can reach this address could ingest events. Give your own keys and admin token ' +
      'with --config FILE (see docs/service.md), or listen on loopback only (--host 127.0.0.1, the default).',
  )
}
