/** The Go, Python and Rust types of the published documents, for `npm run generate`. */
import { SCHEMA_VERSION, schemaDocument } from '../../src/schema/index.js'
import { goFiles } from './go.js'
import { readStructs } from './model.js'
import { pythonFiles } from './python.js'
import { rustFiles } from './rust.js'

export function languageFiles(): { path: string; text: string }[] {
  const structs = readStructs(schemaDocument('event'), schemaDocument('lookup-result'), schemaDocument('subdomains'), schemaDocument('aggregation'), schemaDocument('error'), schemaDocument('conform-report'))
  return [...goFiles(structs, SCHEMA_VERSION), ...pythonFiles(structs, SCHEMA_VERSION), ...rustFiles(structs, SCHEMA_VERSION)]
}
