/** Broken: the day's count is reported for the hour and the hour's for the day. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['plugin-counts']
export const start = () =>
  startFake({ plugins: (events) => CORRECT.plugins(events).map((p) => ({ ...p, event_count1h: p.event_count24h, event_count24h: p.event_count1h })) })
