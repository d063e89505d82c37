/**
 * `l9kit hooks resources add|list|remove`: the watched resources alerts concern. `add VALUE`
 * guesses the type (a `/` makes a network, an IP address an ip, anything else a domain);
 * `--type` says it outright. The service checks and canonicalises the value.
 */
import { isIP } from 'node:net'
import { RESOURCE_TYPES, type Resource, type ResourceType } from '../../../schema/index.js'
import { oneOf, parse } from '../../args.js'
import { type Io, UsageError } from '../../command.js'
import { apiCall, hookClient, needIds, noPositionals, SERVICE_OPTIONS } from './shared.js'
import { printable } from '../../../validate/printable.js'

export async function resources(argv: string[], io: Io): Promise<number> {
  const [action, ...rest] = argv
  switch (action) {
    case 'add':
      return add(rest, io)
    case 'list':
      return list(rest, io)
    case 'remove':
      return remove(rest, io)
    case undefined:
      throw new UsageError("hooks resources: give add, list or remove (see 'l9kit hooks --help')")
    default:
      throw new UsageError(`hooks resources: unknown action '${action}'; one of add, list, remove`)
  }
}

/** The type a value reads as, when --type does not say. */
export function guessType(value: string): ResourceType {
  if (value.includes('/')) return 'network'
  if (isIP(value.replace(/^\[(.*)\]$/, '$1')) !== 0) return 'ip'
  return 'domain'
}

async function add(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks resources add', argv, { ...SERVICE_OPTIONS, type: { type: 'string' } })
  if (positionals.length !== 1) throw new UsageError('hooks resources add: give one VALUE (a domain, an IP address or a CIDR network)')
  const value = positionals[0]!.replace(/^\[(.*)\]$/, '$1')
  const type = values.type === undefined ? guessType(value) : oneOf('hooks resources add', 'type', values.type, RESOURCE_TYPES, 'domain')
  const client = hookClient('hooks resources add', values, io)
  return apiCall('hooks resources add', io, async () => {
    const resource = await client.addResource({ type, value })
    io.stdout.write(values.json ? `${JSON.stringify(resource)}\n` : `watching ${resourceLine(resource)}\n`)
  })
}

async function list(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks resources list', argv, SERVICE_OPTIONS)
  noPositionals('hooks resources list', positionals)
  const client = hookClient('hooks resources list', values, io)
  return apiCall('hooks resources list', io, async () => {
    const found = await client.resources()
    if (values.json) return void io.stdout.write(`${JSON.stringify(found)}\n`)
    for (const r of found) io.stdout.write(`${resourceLine(r)}\n`)
    if (found.length === 0) io.stderr.write('no watched resources\n')
  })
}

async function remove(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse('hooks resources remove', argv, SERVICE_OPTIONS)
  const ids = needIds('hooks resources remove', positionals, 'resource')
  const client = hookClient('hooks resources remove', values, io)
  return apiCall('hooks resources remove', io, async () => {
    for (const id of ids) {
      await client.removeResource(id)
      io.stdout.write(`removed ${id}\n`)
    }
  })
}

/** Escaped for the terminal: the values come from the server. */
const resourceLine = (r: Resource) => printable(`${r.id}  ${r.type.padEnd(7)}  ${r.value}`)
