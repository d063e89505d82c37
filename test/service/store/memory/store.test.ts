import { MemoryStore } from '../../../../src/service/index.js'
import { storeCases } from '../store-cases.js'

storeCases('MemoryStore', () => new MemoryStore())
