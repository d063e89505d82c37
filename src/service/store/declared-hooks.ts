/**
 * Config-declared resources and hooks (docs/hooks.md) are registered when the service starts,
 * and only those not already there: a persistent store keeps them across restarts, and several
 * processes on one database all start with the same file.
 */
import type { HookRecord, NewHook, WatchedResource } from './hook-types.js'

/** Resources and hooks declared in the configuration file. */
export interface DeclaredHooks {
  resources: Omit<WatchedResource, 'id'>[]
  hooks: NewHook[]
}

/** The declared entries that `resources` and `hooks` (what the store has) do not hold yet. */
export function missingDeclared(declared: DeclaredHooks, resources: readonly WatchedResource[], hooks: readonly HookRecord[]): DeclaredHooks {
  return {
    resources: declared.resources.filter((r) => !resources.some((x) => x.owner === r.owner && x.type === r.type && x.value === r.value)),
    hooks: declared.hooks.filter(
      (h) =>
        !hooks.some(
          (x) => x.owner === h.owner && x.url === h.url && x.secret === h.secret && x.minSeverity === h.minSeverity && x.eventTypes.join() === h.eventTypes.join(),
        ),
    ),
  }
}
