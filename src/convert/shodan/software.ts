/** A Shodan banner's software: `product`, `version`, `os`, `cpe23[]` → `service.software`. */
import type { Event } from '../../schema/index.js'
import { productToken } from '../common/software.js'
import { type Json, str, strings } from '../common/values.js'

/**
 * Name and version from `product`/`version` (else the HTTP `server` header); `os`. The first
 * application CPE (`cpe:2.3:a:…`, else the first) is the software's `fingerprint`; the others
 * (the OS, the hardware) become modules `{name: product part, version, fingerprint: CPE}`.
 */
export function fillSoftware(e: Event, b: Json): void {
  const software = e.service.software
  const product = str(b.product).trim()
  if (product !== '') {
    software.name = product
    software.version = str(b.version).trim()
  } else if (e.http.header.server) {
    const token = productToken(e.http.header.server)
    software.name = token.name
    software.version = token.version
    software.os = token.os
  }
  const os = str(b.os).trim()
  if (os !== '') software.os = os
  const cpes = strings(b.cpe23).length > 0 ? strings(b.cpe23) : strings(b.cpe)
  if (cpes.length === 0) return
  const main = cpes.find((c) => /^cpe:(?:2\.3:|\/)a:/.test(c)) ?? cpes[0]!
  software.fingerprint = main
  const others = cpes.filter((c) => c !== main)
  if (others.length > 0) software.modules = others.map(cpeModule)
}

/** `cpe:2.3:o:canonical:ubuntu_linux:20.04` → {ubuntu_linux, 20.04}; `cpe:/o:…` alike. */
function cpeModule(cpe: string): { name: string; version: string; fingerprint: string } {
  const parts = cpe.startsWith('cpe:2.3:') ? cpe.split(':').slice(3) : cpe.split(':').slice(2)
  const version = parts[2] ?? ''
  return { name: parts[1] ?? '', version: version === '*' || version === '-' ? '' : version, fingerprint: cpe }
}
