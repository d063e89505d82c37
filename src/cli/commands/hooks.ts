/** `l9kit hooks`: receive hook deliveries, and manage hooks and watched resources through the hook API. */
import { type Command, UsageError } from '../command.js'
import { DEFAULT_LISTEN_PORT, listen } from './hooks/listen.js'
import { add, deliveries, enable, list, remove, retry, test } from './hooks/manage.js'
import { resources } from './hooks/resources.js'
import { DEFAULT_BASE_URL } from './hooks/shared.js'

const HELP = `Usage: l9kit hooks <action> [options]

Alert hooks (docs/hooks.md): a receiver for deliveries, and the hook API of a service
(l9kit serve, or any server with the same API) for a person at a terminal.

Receive:
  listen [--port N] [--host H] [--secret whsec_...] [--json]
      Listen on H:N (default 127.0.0.1:${DEFAULT_LISTEN_PORT}; --port 0 picks a free port) and print one
      line per delivery: webhook-id, its timestamp, event type, ip:port, severity, and the
      answer. With --secret (or env L9KIT_HOOK_SECRET) the Standard Webhooks signature is
      checked: a bad one is printed as REFUSED 401 and answered 401; a good delivery gets 204.
      --json prints the accepted bodies as JSON Lines on stdout (the lines go to stderr).
      Runs until SIGINT or SIGTERM.

Hooks (need a pro plan key):
  add --url URL [--min-severity S] [--event-types T,...] [--secret whsec_...]
      Register a hook; S is critical, high, medium (default), low or info; T is leak
      (default) and/or service. Prints the hook and its secret, shown only this once.
  list                        the key's hooks: id, minimum severity, event types, URL, and
                              DISABLED with the reason for a hook the service disabled
  remove ID...                delete hooks (and their deliveries)
  enable ID...                make disabled hooks receive again (a 410 answer, or a delivery
                              that failed for its whole retry schedule, disables a hook);
                              their parked deliveries wait for 'retry ID'
  test ID                     have the service send the hook one sample event
  deliveries ID [--status pending|delivered|failed]
                              the hook's deliveries, oldest first
  retry ID [DELIVERY]         re-send one failed delivery, or every failed one of the hook

Watched resources (alerts concern events they cover):
  resources add VALUE [--type domain|ip|network]
      Watch a domain (and its subdomains), an IP address or a CIDR network; the type is
      guessed from VALUE unless --type says it (a '/' makes a network).
  resources list              the key's watched resources
  resources remove ID...      stop watching

Options of every API action:
  --base-url URL   the service (default: env L9KIT_BASE_URL, else ${DEFAULT_BASE_URL})
  --api-key KEY    the key whose hooks and resources these are (default: env L9KIT_API_KEY)
  --json           print the service's answer as JSON instead of lines

Exit codes: 0 done (listen: stopped normally), 1 the service refused the request (its error
title and description are printed), 2 usage error, service unreachable, or cannot listen.`

const ACTIONS: Record<string, (argv: string[], io: Parameters<Command['run']>[1]) => Promise<number>> = {
  listen,
  add,
  list,
  remove,
  enable,
  test,
  deliveries,
  retry,
  resources,
}

export const hooks: Command = {
  name: 'hooks',
  summary: 'Receive hook deliveries; manage hooks and watched resources',
  help: HELP,
  async run(argv, io) {
    const [action, ...rest] = argv
    if (action === undefined) throw new UsageError("hooks: give an action: listen, add, list, remove, enable, test, deliveries, retry or resources (see 'l9kit hooks --help')")
    const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined
    if (run === undefined) throw new UsageError(`hooks: unknown action '${action}'; one of ${Object.keys(ACTIONS).join(', ')}`)
    return run(rest, io)
  },
}
