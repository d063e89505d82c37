/** `l9kit host IP`: the events a lookup service knows for an address (lookup.ts). */
import { lookupCommand } from './lookup.js'

export const host = lookupCommand('host')
