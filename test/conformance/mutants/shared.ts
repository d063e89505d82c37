/** The store and base service read-only mutants share (one per test process). */
import type { MemoryStore } from '../../../src/service/index.js'
import { demoStore } from './harness.js'

let store: Promise<MemoryStore> | undefined

/** The demo store every read-only mutant's service wraps (nothing writes to it). */
export const sharedStore = (): Promise<MemoryStore> => (store ??= demoStore())
