/**
 * Finds calls to an outside service (GitHub, Stripe, S3, SMTP, Supabase: their SDKs, and `fetch`)
 * made while a database transaction is open: inside a Kysely `.transaction().execute(callback)`,
 * or in any function the callback calls, followed through the project's own code
 * (docs/decisions/028-no-outside-calls-in-transactions.md).
 *
 *   npx tsx tests/tools/outside-calls-in-transactions.ts     (lists them; exit 1 when there are any)
 *
 * app/server/no-outside-calls-in-transactions.test.ts runs it over app/ and db/ and over a
 * deliberately bad example.
 *
 * How a call is followed: the TypeScript checker resolves each call to its declaration. A
 * declaration in an outside service's package is a finding; one in the project is walked in turn
 * (once per function), as are functions passed by name, held in a constant, an object literal or
 * a constant array iterated by `for … of`. A function written inside the transaction and handed to
 * `push` is a follow-up collected for after the commit (the Stripe webhook's pattern) and is not
 * walked. Not followed: a function that arrives as a parameter, a method called on an interface
 * (the image storage's interface counts as an outside service itself).
 */
import path from 'node:path'
import ts from 'typescript'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** The SDKs whose calls go over the network (the webhooks' local signature checks excepted). */
const OUTSIDE_PACKAGE =
  /\/node_modules\/(@octokit\/(?!webhooks)[^/]+|octokit|stripe|@aws-sdk\/[^/]+|@smithy\/[^/]+|nodemailer|@types\/nodemailer|@supabase\/[^/]+)\//
/** The project's own interfaces in front of an outside service (S3, or the disk in development). */
const OUTSIDE_INTERFACES = new Set(['ImageStorage'])
const LOCAL_ONLY_CALLS = new Set(['constructEvent', 'constructEventAsync', 'generateTestHeaderString'])
/** Calls whose function arguments are kept for later, not run now. */
const DEFERRING_CALLS = new Set(['push', 'unshift'])

export interface OutsideCall {
  /** Where the transaction is opened (file:line). */
  transaction: string
  /** The functions between the transaction's callback and the call. */
  through: string[]
  /** The call, as written, and where (file:line). */
  call: string
  at: string
  /** The package it goes to (or `fetch`). */
  service: string
}

type FunctionNode = ts.FunctionLikeDeclaration & { body?: ts.ConciseBody }
interface Hit {
  through: string[]
  call: string
  at: string
  service: string
}

export function findOutsideCallsInTransactions(options: { files: string[]; tsconfig?: string }): OutsideCall[] {
  const configFile = options.tsconfig ?? path.join(ROOT, 'tsconfig.json')
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (!parsed) throw new Error(`Cannot read ${configFile}`)
  const program = ts.createProgram({ rootNames: options.files, options: parsed.options })
  const checker = program.getTypeChecker()
  const memo = new Map<ts.Node, Hit[]>()
  const inProgress = new Set<ts.Node>()

  const where = (node: ts.Node) => {
    const file = node.getSourceFile()
    const { line } = file.getLineAndCharacterOfPosition(node.getStart())
    return `${path.relative(ROOT, file.fileName)}:${line + 1}`
  }
  const nameOf = (fn: ts.Node): string => {
    const named = fn as { name?: ts.Node }
    if (named.name && ts.isIdentifier(named.name)) return named.name.text
    if (ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name)) return fn.parent.name.text
    if (ts.isPropertyAssignment(fn.parent) && ts.isIdentifier(fn.parent.name)) return fn.parent.name.text
    return `(function at ${where(fn)})`
  }
  const isProjectSource = (node: ts.Node) => {
    const file = node.getSourceFile()
    return !file.isDeclarationFile && !file.fileName.includes('/node_modules/')
  }
  const unwrap = (expr: ts.Expression): ts.Expression => {
    let e = expr
    while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e))
      e = e.expression
    return e
  }
  const symbolOf = (node: ts.Node): ts.Symbol | undefined => {
    const symbol = checker.getSymbolAtLocation(node)
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
  }

  /** The project functions an expression may stand for (a name, a constant, an array of them…). */
  const functionsOf = (expression: ts.Expression, seen = new Set<ts.Node>()): FunctionNode[] => {
    const expr = unwrap(expression)
    if (seen.has(expr)) return []
    seen.add(expr)
    if (ts.isArrowFunction(expr) || ts.isFunctionExpression(expr)) return [expr]
    if (ts.isArrayLiteralExpression(expr))
      return expr.elements.flatMap((element) => (ts.isSpreadElement(element) ? [] : functionsOf(element, seen)))
    if (!ts.isIdentifier(expr) && !ts.isPropertyAccessExpression(expr)) return []
    const symbol = symbolOf(expr)
    const found: FunctionNode[] = []
    for (const declaration of symbol?.declarations ?? []) {
      if (!isProjectSource(declaration)) continue
      if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) found.push(declaration)
      else if (ts.isVariableDeclaration(declaration)) {
        if (declaration.initializer) found.push(...functionsOf(declaration.initializer, seen))
        else if (ts.isForOfStatement(declaration.parent.parent)) found.push(...functionsOf(declaration.parent.parent.expression, seen))
      } else if (ts.isPropertyAssignment(declaration)) found.push(...functionsOf(declaration.initializer, seen))
      else if (ts.isShorthandPropertyAssignment(declaration)) {
        const value = checker.getShorthandAssignmentValueSymbol(declaration)
        for (const inner of value?.declarations ?? [])
          if (ts.isVariableDeclaration(inner) || ts.isFunctionDeclaration(inner))
            found.push(...functionsOf(inner.name as ts.Identifier, seen))
      }
    }
    return found
  }

  const isThenable = (type: ts.Type): boolean =>
    type.isUnion() ? type.types.some(isThenable) : checker.getPropertyOfType(type, 'then') !== undefined

  /** The outside service a call goes to, when it goes to one. */
  const serviceOf = (call: ts.CallExpression): string | null => {
    const signature = checker.getResolvedSignature(call)
    const file = signature?.declaration?.getSourceFile().fileName ?? ''
    const callee = unwrap(call.expression)
    const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : ''
    const match = OUTSIDE_PACKAGE.exec(file)
    // A request answers later: an SDK call that returns a promise (building a client or a URL does not).
    const answersLater = signature ? isThenable(checker.getReturnTypeOfSignature(signature)) : false
    if (match && answersLater && !LOCAL_ONLY_CALLS.has(name)) return match[1]!
    const owner = signature?.declaration?.parent
    if (answersLater && owner && ts.isInterfaceDeclaration(owner) && OUTSIDE_INTERFACES.has(owner.name.text)) return owner.name.text
    if (name === 'fetch' && (file.includes('/typescript/lib/') || file.includes('/undici-types/') || file.includes('/@types/node/')))
      return 'fetch'
    return null
  }

  /** Every outside call a function makes, directly or through the project functions it calls. */
  const hitsOf = (fn: FunctionNode): Hit[] => {
    const cached = memo.get(fn)
    if (cached) return cached
    if (inProgress.has(fn) || !fn.body) return []
    inProgress.add(fn)
    const hits: Hit[] = []
    const follow = (target: FunctionNode) => {
      for (const hit of hitsOf(target)) hits.push({ ...hit, through: [nameOf(target), ...hit.through] })
    }
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const service = serviceOf(node)
        if (service) hits.push({ through: [], call: node.getText().split('\n')[0]!.slice(0, 120), at: where(node), service })
        else {
          const declaration = checker.getResolvedSignature(node)?.declaration
          const targets = new Set<FunctionNode>(functionsOf(node.expression))
          if (declaration && isProjectSource(declaration) && ts.isFunctionLike(declaration) && (declaration as FunctionNode).body)
            targets.add(declaration as FunctionNode)
          for (const target of targets) if (!isInside(target, fn)) follow(target)
        }
        const callee = unwrap(node.expression)
        const defers = ts.isPropertyAccessExpression(callee) && DEFERRING_CALLS.has(callee.name.text)
        for (const argument of node.arguments) {
          const value = unwrap(argument)
          if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
            if (!defers) visit(value.body)
          } else if (!defers) {
            // A function passed by name is assumed to be run by the callee (map, then, a helper's step).
            for (const target of functionsOf(value)) follow(target)
            visit(argument)
          }
        }
        visit(node.expression)
        return
      }
      // A function written here runs when something calls it (that call is followed), not where it is written.
      if (ts.isFunctionLike(node)) return
      ts.forEachChild(node, visit)
    }
    visit(fn.body)
    inProgress.delete(fn)
    memo.set(fn, hits)
    return hits
  }
  const isInside = (node: ts.Node, container: ts.Node) =>
    node.pos >= container.pos && node.end <= container.end && node.getSourceFile() === container.getSourceFile()

  /** `….transaction()….execute(callback)` on Kysely. */
  const isTransactionExecute = (call: ts.CallExpression): boolean => {
    const callee = call.expression
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'execute') return false
    const declaration = checker.getResolvedSignature(call)?.declaration
    if (!declaration?.getSourceFile().fileName.includes('/node_modules/kysely/')) return false
    let receiver: ts.Expression = callee.expression
    while (ts.isCallExpression(receiver) && ts.isPropertyAccessExpression(receiver.expression)) {
      if (receiver.expression.name.text === 'transaction') return true
      receiver = receiver.expression.expression
    }
    return false
  }

  const findings: OutsideCall[] = []
  const wanted = new Set(options.files.map((file) => path.resolve(file)))
  for (const file of program.getSourceFiles()) {
    if (!wanted.has(path.resolve(file.fileName))) continue
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isTransactionExecute(node) && node.arguments[0]) {
        for (const callback of functionsOf(node.arguments[0])) {
          for (const hit of hitsOf(callback)) findings.push({ transaction: where(node), ...hit })
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return findings
}

/** The application's source files (app/ and db/, tests excluded). */
export function applicationFiles(): string[] {
  return ts.sys
    .readDirectory(ROOT, ['.ts', '.tsx'], undefined, ['app/**/*', 'db/**/*'])
    .filter((file) => !/\.test\.tsx?$/.test(file) && !file.includes('/node_modules/'))
}

export function describeOutsideCall(finding: OutsideCall): string {
  const chain = ['transaction callback', ...finding.through].join(' → ')
  return `${finding.transaction}: ${chain} calls ${finding.service} at ${finding.at}: ${finding.call}`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const findings = findOutsideCallsInTransactions({ files: applicationFiles() })
  for (const finding of findings) console.log(describeOutsideCall(finding))
  console.log(`${findings.length} outside call(s) inside database transactions`)
  process.exitCode = findings.length > 0 ? 1 : 0
}
