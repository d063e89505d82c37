/**
 * Splits ajv's standalone validators into modules that share their common code (issue 39).
 *
 * Each document's standalone module is a list of top-level declarations: schema constants,
 * one function per (sub)schema, pattern objects. The aggregation and lookup-result documents
 * hold the whole event in their `$defs`, so their modules used to carry a full copy of the
 * event's validator. Here every declaration is named by its content (its text with the names
 * of the declarations it refers to replaced by their own content names), so the same check
 * made for several documents is one declaration. A declaration used by one document stays in
 * that document's module; one used by several goes to a shared module for exactly that set
 * of documents, which their modules import. A document's module therefore loads its own code
 * and what it shares, never another document's own code.
 */
import { createHash } from 'node:crypto'
import ts from 'typescript'

/** One top-level declaration of a standalone module. */
interface Declaration {
  /** The name it declares (`validate52`, `schema19`, `pattern3`, `ucs2length`). */
  name: string
  text: string
  /** Where its text names a top-level declaration (itself included): offset in `text`, and the name. */
  uses: { at: number; name: string }[]
  /** Names of the module's other declarations that its text refers to. */
  refs: string[]
}

/** A document's standalone module, parsed. */
interface Parsed {
  document: string
  /** Name of the exported validator. */
  root: string
  declarations: Map<string, Declaration>
}

/** A generated module: its file name (without `.js`) and text (without the banner). */
export interface SplitModule {
  name: string
  text: string
}

/** Reads the top-level declarations of ajv's standalone ESM code. */
function parse(document: string, code: string): Parsed {
  const source = ts.createSourceFile(`${document}.js`, code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS)
  const declarations = new Map<string, Declaration>()
  const nodes = new Map<string, ts.Node[]>()
  let root: string | undefined
  for (const statement of source.statements) {
    const text = statement.getText(source)
    if (ts.isExpressionStatement(statement) && ts.isStringLiteral(statement.expression)) continue // "use strict"
    if (ts.isExportAssignment(statement)) {
      root = statement.expression.getText(source)
      continue
    }
    if (ts.isVariableStatement(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue // export const validate = …
    // `validate54.evaluated = {…}`: a property of a function, kept with it.
    if (ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression) && ts.isPropertyAccessExpression(statement.expression.left)) {
      const owner = statement.expression.left.expression.getText(source)
      if (declarations.has(owner)) {
        declarations.get(owner)!.text += '\n' + text
        nodes.get(owner)!.push(statement)
        continue
      }
    }
    let name: string | undefined
    if (ts.isFunctionDeclaration(statement) && statement.name) name = statement.name.text
    else if (ts.isVariableStatement(statement) && statement.declarationList.declarations.length === 1) {
      const declared = statement.declarationList.declarations[0]!.name
      if (ts.isIdentifier(declared)) name = declared.text
    }
    if (name === undefined) throw new Error(`${document}: unexpected top-level statement in ajv's standalone code: ${text.slice(0, 80)}`)
    declarations.set(name, { name, text, uses: [], refs: [] })
    nodes.set(name, [statement])
  }
  if (root === undefined || !declarations.has(root)) throw new Error(`${document}: no exported validator`)
  // Uses: identifiers that name a top-level declaration (ajv's local names, data0, err0,
  // evaluated0, …, never take those names; property names are not identifiers here).
  for (const [name, statements] of nodes) {
    const declaration = declarations.get(name)!
    let base = 0
    for (const statement of statements) {
      const start = statement.getStart(source)
      const visit = (node: ts.Node): void => {
        if (ts.isIdentifier(node) && declarations.has(node.text)) {
          const parent = node.parent
          const isMember = ts.isPropertyAccessExpression(parent) && parent.name === node
          const isKey = (ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent)) && parent.name === node
          if (isKey && ts.isShorthandPropertyAssignment(parent)) throw new Error(`${document}: shorthand property ${node.text}`)
          if (!isMember && !isKey) declaration.uses.push({ at: base + node.getStart(source) - start, name: node.text })
        }
        ts.forEachChild(node, visit)
      }
      visit(statement)
      base += statement.getText(source).length + 1 // the '\n' joining a function and its property
    }
    declaration.refs = [...new Set(declaration.uses.map((u) => u.name).filter((n) => n !== name))]
  }
  return { document, root, declarations }
}

/** The declaration's text with the names it uses replaced as `names` says. */
function rename(declaration: Declaration, names: ReadonlyMap<string, string>): string {
  let out = ''
  let from = 0
  for (const use of declaration.uses) {
    out += declaration.text.slice(from, use.at) + (names.get(use.name) ?? use.name)
    from = use.at + use.name.length
  }
  return out + declaration.text.slice(from)
}

/**
 * Content names of a module's declarations: the SHA-256 of the text with its own name and the
 * names it refers to replaced by content names. Declarations on a cycle of references (a
 * recursive schema) are named by document and name: they are not shared.
 */
function contentNames(parsed: Parsed): Map<string, string> {
  const named = new Map<string, string>()
  const visiting = new Set<string>()
  const cyclic = new Set<string>()
  const visit = (name: string): string | undefined => {
    const done = named.get(name)
    if (done) return done
    if (visiting.has(name)) {
      cyclic.add(name)
      return undefined
    }
    visiting.add(name)
    const declaration = parsed.declarations.get(name)!
    const names = new Map<string, string>([[name, '$self']])
    let onCycle = false
    for (const ref of declaration.refs) {
      const content = visit(ref)
      if (content === undefined) onCycle = true
      else names.set(ref, content)
    }
    visiting.delete(name)
    const content = onCycle || cyclic.has(name) ? `${parsed.document}:${name}` : createHash('sha256').update(rename(declaration, names)).digest('hex')
    named.set(name, content)
    return content
  }
  for (const name of parsed.declarations.keys()) visit(name)
  return named
}

/**
 * Shared declarations of a set of documents smaller than this are copied into each module that
 * needs them: loading one more module costs more than a few kilobytes of code.
 */
const COPY_BELOW = 16 * 1024

/** A declaration once, whatever modules held it. */
interface Unique {
  declaration: Declaration
  /** The module it was first met in (its names are that module's). */
  from: Parsed
  /** Its name in every generated module. */
  name: string
  /** The documents whose validators reach it. */
  users: string[]
  /** Copied into each module that refers to it, instead of being imported. */
  copied?: boolean
}

/** Names of the declarations reachable from the module's validator. */
function reachable(parsed: Parsed): Set<string> {
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const ref of parsed.declarations.get(name)!.refs) visit(ref)
  }
  visit(parsed.root)
  return seen
}

/**
 * The modules of `documents` (name → ajv standalone ESM code, in the order given): one per
 * document, exporting its validator as `validate` and as the default export, and the shared
 * modules they import, named by `sharedName` from the documents that use them. Declarations
 * the validator does not reach (ajv writes the root schema whether used or not) are left out.
 */
export function splitValidators(documents: ReadonlyMap<string, string>, sharedName: (users: readonly string[]) => string): SplitModule[] {
  const parsed = [...documents].map(([document, code]) => parse(document, code))
  const content = new Map(parsed.map((p) => [p.document, contentNames(p)]))
  const unique = new Map<string, Unique>()
  const counters = new Map<string, number>()
  for (const p of parsed) {
    const used = reachable(p)
    for (const declaration of p.declarations.values()) {
      if (!used.has(declaration.name)) continue
      const key = content.get(p.document)!.get(declaration.name)!
      const known = unique.get(key)
      if (known) {
        if (!known.users.includes(p.document)) known.users.push(p.document)
        continue
      }
      // New names numbered per kind across all modules (schema0, validate0, …), so that a name
      // is one declaration wherever it appears.
      const kind = declaration.name.replace(/[0-9]+$/, '')
      const n = counters.get(kind) ?? 0
      counters.set(kind, n + 1)
      unique.set(key, { declaration, from: p, name: kind === declaration.name ? kind : `${kind}${n}`, users: [p.document] })
    }
  }
  // A set of documents' shared code goes to the module of the first of them when that module
  // holds little else (the event's: its own code is the reference to its `$defs` entry), so
  // that validating it loads one module; otherwise to a module of its own.
  const ownBytes = new Map<string, number>()
  for (const u of unique.values()) if (u.users.length === 1) ownBytes.set(u.users[0]!, (ownBytes.get(u.users[0]!) ?? 0) + u.declaration.text.length)
  const moduleOf = (u: Unique) => (u.users.length === 1 || (ownBytes.get(u.users[0]!) ?? 0) < COPY_BELOW ? u.users[0]! : sharedName(u.users))
  const groups = new Map<string, Unique[]>(parsed.map((p) => [p.document, []]))
  for (const u of unique.values()) {
    const name = moduleOf(u)
    groups.set(name, [...(groups.get(name) ?? []), u])
  }
  // Small sets of shared declarations (by the documents that use them) are copied.
  const byUsers = new Map<string, Unique[]>()
  for (const u of unique.values()) if (u.users.length > 1) byUsers.set(u.users.join('+'), [...(byUsers.get(u.users.join('+')) ?? []), u])
  for (const list of byUsers.values()) {
    if (list.reduce((n, u) => n + u.declaration.text.length, 0) >= COPY_BELOW) continue
    for (const u of list) {
      u.copied = true
      const held = groups.get(moduleOf(u))!
      held.splice(held.indexOf(u), 1)
      if (held.length === 0 && !documents.has(moduleOf(u))) groups.delete(moduleOf(u))
    }
  }
  const targetOf = (u: Unique, ref: string) => unique.get(content.get(u.from.document)!.get(ref)!)!
  // Per module: the declarations it holds (its own, then copies of small shared ones it needs) and its imports.
  const layout = new Map<string, { held: Unique[]; imports: Map<string, Set<string>> }>()
  for (const [name, list] of groups) {
    const held = [...list]
    const imports = new Map<string, Set<string>>()
    const copies: Unique[] = []
    for (let i = 0; i < held.length; i++) {
      const u = held[i]!
      for (const ref of u.declaration.refs) {
        const target = targetOf(u, ref)
        if (held.includes(target)) continue
        if (target.copied) {
          held.push(target)
          copies.push(target)
          continue
        }
        const set = imports.get(moduleOf(target)) ?? new Set<string>()
        set.add(target.name)
        imports.set(moduleOf(target), set)
      }
    }
    const document = parsed.find((p) => p.document === name)
    const root = document && targetOf({ from: document } as Unique, document.root)
    if (root && !held.includes(root)) throw new Error(`${name}: its validator is another document's (not supported)`)
    // Copies first: they are constants the module's functions use.
    layout.set(name, { held: [...copies, ...list], imports })
  }
  const importedFrom = (module: string) => new Set([...layout.values()].flatMap(({ imports }) => [...(imports.get(module) ?? [])]))
  const modules: SplitModule[] = []
  for (const [name, { held, imports }] of layout) {
    const lines = ['"use strict";']
    for (const [from, names] of [...imports].sort(([a], [b]) => (a < b ? -1 : 1))) lines.push(`import { ${[...names].sort().join(', ')} } from './${from}.js';`)
    const document = parsed.find((p) => p.document === name)
    if (document) {
      const root = targetOf({ from: document } as Unique, document.root)
      lines.push(`export const validate = ${root.name};`, `export default ${root.name};`)
    }
    for (const u of held) {
      const names = new Map<string, string>()
      for (const original of [u.declaration.name, ...u.declaration.refs]) names.set(original, targetOf(u, original).name)
      lines.push(rename(u.declaration, names))
    }
    const exported = [...importedFrom(name)]
    if (exported.length > 0) lines.push(`export { ${exported.join(', ')} };`)
    modules.push({ name, text: lines.join('\n') + '\n' })
  }
  return modules
}
