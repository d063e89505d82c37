export { DEFAULT_MAX_LINE_BYTES, type Line, type LineItem, type LineProblem, LineSplitter, readLines } from './lines.js'
export { badJson, isRecordError, type JsonRecord, type ReadOptions, readRecords } from './records.js'
export { CHUNK_BYTES, inputName, JsonlWriter, openInput, openSized } from './input.js'
