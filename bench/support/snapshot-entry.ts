/**
 * The entry of bench/start-snapshot.ts's V8 start-up snapshot: the CLI's program, the event
 * validator loaded and run once before the snapshot is taken, and the program run on the
 * process's arguments when a process starts from the snapshot. A measurement, not a product.
 */
import v8 from 'node:v8'
import { main } from '../../src/cli/program.js'
import { emptyEvent } from '../../src/schema/empty.js'
import { loadJudge } from '../../src/validate/load-judge.js'

void loadJudge('event').then((judge) => judge(JSON.parse(JSON.stringify(emptyEvent()))))

v8.startupSnapshot.setDeserializeMainFunction(async () => {
  // Started from a snapshot, argv[1] is the first argument given after the node options.
  process.exitCode = await main(process.argv.slice(1), {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    stopSignal: new AbortController().signal,
    ownsProcess: true,
  })
})
