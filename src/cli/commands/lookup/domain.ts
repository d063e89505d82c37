/** `l9kit domain NAME`: the events a lookup service knows for a domain and its subdomains (lookup.ts). */
import { lookupCommand } from './lookup.js'

export const domain = lookupCommand('domain')
