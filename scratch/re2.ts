import { RE2JS } from 're2js'
const p = '(?s:(?:(?:[^a]{0,50}[^b]{0,50}){10})z)'
for (let i = 0; i < 5; i++) { const t0 = performance.now(); RE2JS.compile(p); console.log((performance.now()-t0).toFixed(2), 'ms') }
const q = '(?s:(?:[^\\x{61}]{0,50}[^\\x{62}]{0,50}z))'
for (let i = 0; i < 3; i++) { const t0 = performance.now(); RE2JS.compile(q); console.log('small', (performance.now()-t0).toFixed(2), 'ms') }
