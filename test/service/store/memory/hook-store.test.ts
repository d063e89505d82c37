import { MemoryHookStore } from '../../../../src/service/index.js'
import { CASES_QUEUE_LIMIT, hookStoreCases } from '../hook-store-cases.js'

hookStoreCases('MemoryHookStore', () => new MemoryHookStore({ queueLimit: CASES_QUEUE_LIMIT }))
