#!/usr/bin/env node
/**
 * The `l9kit` binary as the package installs it (dist/cli/main.cjs, package.json's `bin`):
 * CommonJS, so that a stream command starts from its one-file build (load.ts) without Node's
 * ES module loader, whose start-up (module jobs, reading files on libuv's thread pool) a short
 * run would otherwise pay. Anything else, or L9KIT_FAST=0, runs dist/cli/main.js, the ES
 * modules' entry, which decides again the same way (so either file gives the same answers).
 */
import { pathToFileURL } from 'node:url'
import { fastStart } from './load.js'

const argv = process.argv.slice(2)
const here = pathToFileURL(__filename)
const fast = fastStart(argv[0], new URL('../fast/', here))
// As main.ts: a rejection (none is expected: start() reports errors itself) ends the process.
if (fast !== undefined) void fast(argv, new URL('./jobs-worker.js', here))
else void import(new URL('./main.js', here).href)
