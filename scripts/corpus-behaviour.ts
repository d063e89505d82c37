/**
 * Records what `validate` (strict, lenient) and `normalize` make of every corpus file into
 * test/corpus/behaviour.json, which test/corpus/behaviour.test.ts compares against. Run it only
 * when a change of behaviour is meant (and say so in the commit): `npx tsx scripts/corpus-behaviour.ts`.
 */
import { writeFileSync } from 'node:fs'
import { BEHAVIOUR_FILE, behaviourOf, corpusFiles, linesBehaviour, type Recording } from '../test/corpus/behaviour.js'

const recording: Recording = { files: {}, lines: await linesBehaviour() }
for (const file of corpusFiles()) recording.files[file] = await behaviourOf(file)
// One line per file, so that a change shows in a diff as the files it touched.
const entries = Object.entries(recording.files).map(([file, b]) => `  ${JSON.stringify(file)}: ${JSON.stringify(b)}`)
writeFileSync(BEHAVIOUR_FILE, `{\n "lines": ${JSON.stringify(recording.lines)},\n "files": {\n${entries.join(',\n')}\n }\n}\n`)
console.log(`${entries.length} files recorded in ${BEHAVIOUR_FILE}`)
