/**
 * Keeps process.nextTick's queue entries on one hidden class for the life of the process.
 *
 * Node 20's nextTick builds each entry as an object literal whose first two keys are symbols
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 holds the
 * hidden classes such an object passes through only weakly: when a full garbage collection
 * finds no entry alive (they live one turn of the event loop), it drops them, and the next
 * entry makes new ones. The literal's inline caches then see a new class after every full
 * collection, and after five they give up (megamorphic) for good: from then on every nextTick
 * defines its properties through the runtime, about 1 200 instructions each. Node's HTTP
 * server calls nextTick several times per request, so a service that had a few full
 * collections (a large `--load`, an ingest, any long run) answered each lookup with about
 * 38 000 more instructions than a fresh process: 40 % of a kept /host answer (docs/speed.md,
 * "Host lookups: a process that has collected garbage").
 *
 * One entry kept alive keeps its classes alive, so they are never made anew: it is taken
 * once, at load, with an async hook enabled for the one call that makes it. Must run before
 * the process's first full collection (an inline cache that went megamorphic stays so), hence
 * when the HTTP layer is loaded (http/server.ts calls it), which every way of starting the
 * service does before it loads any events.
 */
import { createHook } from 'node:async_hooks'

let kept: object | undefined

/** Takes one nextTick entry and keeps it (idempotent; a no-op where Node makes no `TickObject`). */
export function keepTickObjectClasses(): void {
  if (kept !== undefined) return
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject' && kept === undefined) kept = resource
    },
  })
  hook.enable()
  try {
    process.nextTick(noop)
  } finally {
    hook.disable()
  }
}

/** Whether an entry is kept (tests). */
export const tickObjectKept = (): boolean => kept !== undefined

function noop(): void {}
