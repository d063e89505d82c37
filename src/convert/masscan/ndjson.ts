/**
 * masscan's JSON Lines output (`-oD`): `{"ip","timestamp","port","proto","rec_type":"status",
 * "data":{status,reason,ttl}}` and `rec_type` `banner` with `data{service_name,banner}`.
 */
import { isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import { type Json, obj, str } from '../common/values.js'
import { jsonBanner } from './lines.js'
import { type MasscanRecord, recordDraft } from './record.js'

/** `{ip, rec_type, …}`: masscan names each record's type. */
export const claimsMasscanNdjson = (r: Json) => isText(r, 'ip') && isText(r, 'rec_type')

export const masscanNdjson = recordConverter({
  name: 'masscan-ndjson',
  tool: 'masscan',
  description: 'masscan JSON Lines (-oD): open ports and banners',
  claims: claimsMasscanNdjson,
  detect: (head) => detectBy(head, claimsMasscanNdjson, (text) => hasMembers(text, 'rec_type') && hasMembers(text, 'ip')),
  map(record, ctx) {
    const data = obj(record.data) ?? {}
    const port = typeof record.port === 'number' || typeof record.port === 'string' ? record.port : ''
    const timestamp = typeof record.timestamp === 'string' || typeof record.timestamp === 'number' ? record.timestamp : undefined
    const base = { ip: str(record.ip), port, proto: str(record.proto), timestamp }
    let masscan: MasscanRecord
    switch (record.rec_type) {
      case 'status':
        masscan = { ...base, status: str(data.status) }
        break
      case 'banner':
        masscan = { ...base, status: 'banner', service: str(data.service_name), banner: jsonBanner(str(data.banner)) }
        break
      default:
        return { reason: `unknown rec_type ${JSON.stringify(record.rec_type ?? null)}` }
    }
    return recordDraft(masscan, ctx.runStart) ?? []
  },
})
