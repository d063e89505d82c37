import { RE2JS } from 're2js'
for (const p of ['((a{0,11}){0,100})', '(?:(?:[^a]{0,50}[^b]{0,50}){10})z', '((a{0,40}){0,30})', '(a{2}){600}']) {
  const t0 = performance.now()
  try { RE2JS.compile(p); console.log('ok', p, (performance.now()-t0).toFixed(2), 'ms') } catch (e) { console.log('ERR', p, (e as Error).constructor.name, (e as Error).message) }
}
