/**
 * The hook API in the OpenAPI document (our extension, docs/hooks.md): watched resources, hooks
 * and their deliveries, as src/service/http/resources.ts and hooks.ts answer them.
 */
import { EXAMPLES } from './openapi-examples.js'
import { errorAnswer, json, patterned, rateLimited, ref } from './openapi-parts.js'

const KEY = [{ apiKey: [] }]

const unauthorized = (who: string) => errorAnswer('401', `No api-key header, or a key the service does not know. ${who}`, 'The api-key header holds no known key.')
const forbidden = errorAnswer('403', 'The key is known but its plan is not pro: hooks are for pro keys.', "Hooks are for pro keys only; this key's plan is registered.")
const badJson = (what: string, member: string) =>
  errorAnswer('400', `The body is empty, not JSON, or breaks the ${what} schema; the description names the member.`, `Bad ${what}: member ${member}: is required.`)
const tooLarge = errorAnswer('413', 'The body is larger than 64 KiB: refused from its `content-length` before it is read, or once that much arrived without one; the connection is closed after the answer.', 'The body is larger than 65536 bytes.')
const noHook = errorAnswer('404', 'No hook with this id belongs to the key (another key\'s hook is answered the same way).', 'No hook "hook_7pQx2LmA" belongs to this key.')
const noContent = { description: 'Done; no body.' }
const disabled = errorAnswer('409', 'The hook is disabled: enable it first.', 'Hook hook_7pQx2LmA is disabled (the receiver answered 410 Gone); enable it first with POST /api/hooks/hook_7pQx2LmA/enable.')

const capReached = (what: string, example: string) =>
  errorAnswer('409', `The key already has as many ${what} as its plan allows (the plans' \`${what === 'hooks' ? 'hooks' : 'resources'}\` member of the service configuration).`, example)

/** `?limit=` and `?cursor=` of the two lists, and the `link` header naming the next page. */
const pageParameters = [
  { name: 'limit', in: 'query', required: false, description: 'Items per page, 1 to 1000 (default 100).', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'Where the page starts: the `cursor` of the previous answer’s `link` header. Absent: the first page.',
    schema: patterned('^[0-9]{1,18}$'),
  },
]
const badPage = errorAnswer('400', 'The limit is not 1 to 1000, or the cursor is not one this service gave.', 'The limit parameter must be an integer from 1 to 1000 (got "0").')
const pageHeaders = {
  link: {
    description: 'Present when more items follow: `<PATH?limit=N&cursor=C>; rel="next"` (RFC 8288), the next page. Absent on the last page.',
    required: false,
    schema: patterned('^<[^>]+>; rel="next"$'),
  },
}
const page = (description: string, schema: ReturnType<typeof ref>, example: unknown) => ({ ...json(description, schema, example), headers: pageHeaders })

const hookId = { name: 'id', in: 'path', required: true, description: 'A hook id (`hook_…`).', schema: patterned('^hook_[0-9A-Za-z]+$') }

/** Common answers of every hook route after the path matched. */
const hookAuth = { '401': unauthorized('Hooks need a pro key.'), '403': forbidden, '429': rateLimited() }

const op = (operationId: string, tag: string, summary: string, description: string, rest: Record<string, unknown>) => ({
  operationId,
  tags: ['extension', tag],
  summary,
  description,
  security: KEY,
  ...rest,
})

export function hookPaths() {
  return {
    '/api/resources': {
      post: op('createResource', 'resources', 'Watch a resource', "Any known key, up to its plan's cap (10 000 for pro keys, 100 for registered ones by default). The value is checked and stored in canonical spelling.", {
        requestBody: { required: true, ...json('What to watch.', ref('resource-request'), EXAMPLES.resourceRequest()) },
        responses: {
          '201': json('Watched; the resource in canonical spelling.', ref('resource'), EXAMPLES.resource()),
          '400': badJson('resource', '/type'),
          '401': unauthorized('Watched resources need a key.'),
          '409': capReached('watched resources', 'This key already has 10000 watched resources, the most its plan (pro) allows; remove some first.'),
          '413': tooLarge,
          '429': rateLimited(),
        },
      }),
      get: op('listResources', 'resources', 'List watched resources', "One page of the key's watched resources, oldest first; the `link` header names the next page.", {
        parameters: pageParameters,
        responses: {
          '200': page('The watched resources of this page.', ref('resources'), [EXAMPLES.resource()]),
          '400': badPage,
          '401': unauthorized('Watched resources need a key.'),
          '429': rateLimited(),
        },
      }),
    },
    '/api/resources/{id}': {
      delete: op('deleteResource', 'resources', 'Stop watching a resource', 'Hooks stop receiving events that only this resource covered.', {
        parameters: [{ name: 'id', in: 'path', required: true, description: 'A resource id (`res_…`).', schema: patterned('^res_[0-9A-Za-z]+$') }],
        responses: {
          '204': noContent,
          '401': unauthorized('Watched resources need a key.'),
          '404': errorAnswer('404', 'No watched resource with this id belongs to the key.', 'No watched resource "res_3kTMd92jx0" belongs to this key.'),
          '429': rateLimited(),
        },
      }),
    },
    '/api/hooks': {
      post: op('createHook', 'hooks', 'Add a hook', "Pro keys only, up to the plan's cap (50 by default). The URL must be `http:` or `https:` to a public address unless the service allows private hooks. The secret is generated when absent and shown only in this answer.", {
        requestBody: { required: true, ...json('The hook.', ref('hook-request'), EXAMPLES.hookRequest()) },
        responses: {
          '201': json('The hook, with its signing secret.', ref('created-hook'), EXAMPLES.createdHook()),
          '400': badJson('hook', '/url'),
          ...hookAuth,
          '409': capReached('hooks', 'This key already has 50 hooks, the most its plan (pro) allows; remove some first.'),
          '413': tooLarge,
        },
      }),
      get: op('listHooks', 'hooks', 'List hooks', "One page of the key's hooks, oldest first, without their secrets; the `link` header names the next page.", {
        parameters: pageParameters,
        responses: { '200': page('The hooks of this page.', ref('hooks'), [EXAMPLES.hook()]), '400': badPage, ...hookAuth },
      }),
    },
    '/api/hooks/{id}': {
      parameters: [hookId],
      get: op('getHook', 'hooks', 'Show a hook', 'Without its secret.', {
        responses: { '200': json('The hook.', ref('hook'), EXAMPLES.hook()), ...hookAuth, '404': noHook },
      }),
      delete: op('deleteHook', 'hooks', 'Remove a hook', 'The hook receives nothing more.', {
        responses: { '204': noContent, ...hookAuth, '404': noHook },
      }),
    },
    '/api/hooks/{id}/enable': {
      parameters: [hookId],
      post: op('enableHook', 'hooks', 'Enable a disabled hook', 'Makes the hook active again: new matching events reach it. Its parked deliveries stay failed until re-sent with the retry routes. Enabling an active hook changes nothing.', {
        responses: { '200': json('The hook, active.', ref('hook'), EXAMPLES.hook()), ...hookAuth, '404': noHook },
      }),
    },
    '/api/hooks/{id}/test': {
      parameters: [hookId],
      post: op('testHook', 'hooks', 'Send a sample event', 'Queues one sample leak event for the hook, whatever its filters (like a ping).', {
        responses: { '202': json('Queued; the delivery, to follow in the delivery list.', ref('delivery'), { ...EXAMPLES.delivery(), status: 'pending', attempts: 0, last_status: null, last_error: null }), ...hookAuth, '404': noHook, '409': disabled },
      }),
    },
    '/api/hooks/{id}/deliveries': {
      parameters: [hookId],
      get: op('listDeliveries', 'deliveries', 'List deliveries', 'Deliveries of the hook, oldest first, optionally only those in one status.', {
        parameters: [{ name: 'status', in: 'query', required: false, description: 'Only deliveries in this status.', schema: ref('delivery-status') }],
        responses: {
          '200': json('The deliveries.', ref('deliveries'), [EXAMPLES.delivery()]),
          '400': errorAnswer('400', 'The status parameter is not one of pending, delivered, failed.', 'The status parameter must be one of pending, delivered, failed (got "done").'),
          ...hookAuth,
          '404': noHook,
        },
      }),
    },
    '/api/hooks/{id}/deliveries/{delivery}/retry': {
      parameters: [hookId, { name: 'delivery', in: 'path', required: true, description: 'A delivery id (`msg_…`), the `webhook-id` of its attempts.', schema: patterned('^msg_[0-9A-Za-z]+$') }],
      post: op('retryDelivery', 'deliveries', 'Re-send a failed delivery', 'Puts one parked (failed) delivery back in the queue.', {
        responses: {
          '200': json('Queued again.', ref('retry-result'), { queued: 1 }),
          ...hookAuth,
          '404': errorAnswer('404', 'No such hook for this key, or no such delivery of the hook.', 'Hook hook_7pQx2LmA has no delivery "msg_2Lq8Vx0bRt".'),
          '409': errorAnswer('409', 'The delivery is not failed (it is pending or delivered), or the hook is disabled.', 'Delivery msg_2Lq8Vx0bRt is delivered; only failed deliveries can be re-sent.'),
        },
      }),
    },
    '/api/hooks/{id}/retry-failed': {
      parameters: [hookId],
      post: op('retryFailedDeliveries', 'deliveries', 'Re-send every failed delivery', 'Puts every parked delivery of the hook back in the queue, in their original order.', {
        responses: { '200': json('How many were queued again (0 when none had failed).', ref('retry-result'), EXAMPLES.retry()), ...hookAuth, '404': noHook, '409': disabled },
      }),
    },
  }
}
