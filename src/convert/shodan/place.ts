/** Where a Shodan banner's host is: `location` → `geoip`, `asn` and `org` → `network`. */
import type { Event } from '../../schema/index.js'
import { type Json, int, obj, str } from '../common/values.js'

/**
 * Fills `geoip` and `network`. A banner carries `location{…}`; a host look-up has the same
 * members flat (`city`, `country_code`, `latitude`, …), used when a banner has none.
 */
export function fillPlace(e: Event, b: Json, host: Json | undefined): void {
  const place = obj(b.location) ?? host ?? {}
  const geo = e.geoip
  geo.city_name = str(place.city)
  geo.country_iso_code = str(place.country_code)
  geo.country_name = str(place.country_name)
  geo.region_iso_code = str(place.region_code)
  const lat = coordinate(place.latitude, 90)
  const lon = coordinate(place.longitude, 180)
  if (lat !== undefined && lon !== undefined) geo.location = { lat, lon }
  // `AS64500` (Shodan's form), also a bare number.
  const asn = str(b.asn) || str(host?.asn)
  e.network.asn = int(asn.replace(/^AS/i, '')) ?? 0
  e.network.organization_name = str(b.org) || str(host?.org) || str(b.isp) || str(host?.isp)
}

/** A latitude or longitude within ±limit, from a number or a decimal string. */
function coordinate(value: unknown, limit: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined
}
