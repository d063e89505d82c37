/**
 * What the nmap readers (XML and greppable) extract from one host, before it becomes events.
 * Both readers fill the same shape, so one builder (events.ts) maps it for both.
 */

/** A script result: its id, its text output, and its structured `<elem>`/`<table>` tree. */
export interface NmapScript {
  id: string
  output: string
  root: ScriptTable
}

/** A `<table>` of a script result (the script element itself is the root table). */
export interface ScriptTable {
  key: string
  elems: { key: string; value: string }[]
  tables: ScriptTable[]
}

export interface NmapService {
  name: string
  product: string
  version: string
  extrainfo: string
  ostype: string
  /** `ssl` when nmap spoke TLS to reach the service. */
  tunnel: string
  /** `probed` (version detection) or `table` (a guess from the port number). */
  method: string
  cpes: string[]
  /** Greppable output only: product, version and extra info in one string. */
  fullversion: string
  /** masscan's XML: the banner it grabbed. */
  banner: string
}

export interface NmapPort {
  protocol: string
  portid: string
  state: string
  service: NmapService | undefined
  scripts: NmapScript[]
  /** Where the port is in the input, for problems. */
  where: string
  line: number
}

export interface NmapHost {
  starttime: string
  endtime: string
  /** `up`, `down`, `unknown`, or empty when the output has no status. */
  state: string
  ip: string
  mac: string
  vendor: string
  hostnames: { name: string; type: string }[]
  /** Open ports only: the readers drop the others as they go. */
  ports: NmapPort[]
  /** Best OS match, if OS detection ran. */
  os: { name: string; accuracy: string } | undefined
  hostScripts: NmapScript[]
  where: string
  line: number
}

/** Run-wide facts every host falls back on. */
export interface NmapRun {
  /** `nmap`, or `masscan` for masscan's nmap-style XML. */
  scanner: string
  /** Run start as Unix seconds text, or empty. */
  start: string
}

export const emptyService = (): NmapService => ({
  name: '',
  product: '',
  version: '',
  extrainfo: '',
  ostype: '',
  tunnel: '',
  method: '',
  cpes: [],
  fullversion: '',
  banner: '',
})

export const emptyHost = (where: string, line: number): NmapHost => ({
  starttime: '',
  endtime: '',
  state: '',
  ip: '',
  mac: '',
  vendor: '',
  hostnames: [],
  ports: [],
  os: undefined,
  hostScripts: [],
  where,
  line,
})

export const emptyTable = (key = ''): ScriptTable => ({ key, elems: [], tables: [] })

/** The value of the first `<elem key=…>` of a table, or empty. */
export function elem(table: ScriptTable | undefined, key: string): string {
  if (!table) return ''
  for (const e of table.elems) if (e.key === key) return e.value
  return ''
}

/** The first child table with this key. */
export function table(parent: ScriptTable | undefined, key: string): ScriptTable | undefined {
  return parent?.tables.find((t) => t.key === key)
}
