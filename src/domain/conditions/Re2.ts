/**
 * Regular expressions for the `matches` operator: RE2 syntax, matched in linear time by `re2js`
 * (a pure-JavaScript port of RE2, the engine of Go's `regexp`; see docs/internals/decisions.md).
 *
 * RE2 is the dialect because every SDK can agree on it: Go's `regexp`, Rust's `regex`, RE2/J and
 * RE2 itself accept the same syntax and never backtrack, so a stored pattern means the same thing,
 * at the same bounded cost, wherever it is evaluated. Backreferences and lookaround do not exist
 * in RE2 (they are what makes other engines exponential), so they are refused on write.
 *
 * Cost: RE2 runs an automaton over the input, so one test reads each character once and keeps at
 * most one thread per program instruction: O(input length x program size), whatever the pattern.
 * A condition's patterns are compiled together as one alternation, so a condition costs one pass
 * per string; `Limits.regexSizePerCondition` bounds its program size, and every test is charged
 * to the evaluation's budget before it runs (RegexBudget.ts), which bounds the total.
 */
import { RE2JS } from "re2js"
import * as RegexBudget from "./RegexBudget.js"
import type { RegexEngine, Tester } from "./RegexEngine.js"

const PREFIX = "error parsing regexp: "

const reason = (e: unknown): string => {
  const message = e instanceof Error ? e.message : String(e)
  return message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message
}

/**
 * One regular expression that matches where any of `patterns` does. Each pattern is its own
 * non-capturing group, so its inline flags (`(?i)`) and alternations stay inside it.
 */
const alternation = (patterns: ReadonlyArray<string>): string => patterns.map((p) => `(?:${p})`).join("|")

/**
 * Why `pattern` is not valid RE2 syntax, or `undefined` when it compiles. A pattern must also
 * compile inside a group (the form `alternation` gives it): only a `\Q` quote left open fails there.
 */
export const syntaxProblem = (pattern: string): string | undefined => {
  try {
    RE2JS.compile(pattern)
  } catch (e) {
    return reason(e)
  }
  try {
    RE2JS.compile(alternation([pattern]))
    return undefined
  } catch {
    return "a \\Q quote must be closed with \\E"
  }
}

/** `(?:pattern)` compiled, or undefined when the pattern has a `syntaxProblem` (as `syntaxProblem` decides). */
const groupOf = (pattern: string): RE2JS | undefined => {
  try {
    RE2JS.compile(pattern)
    return RE2JS.compile(alternation([pattern]))
  } catch {
    return undefined
  }
}

/** The RE2 program size of a condition's patterns taken together; each must have no `syntaxProblem`. */
export const programSize = (patterns: ReadonlyArray<string>): number => RE2JS.compile(alternation(patterns)).programSize()

/**
 * Compiles a condition's patterns for evaluation. A stored pattern that is not valid RE2 (which
 * validation refuses) is dropped, so it never matches, like any value of the wrong type.
 *
 * Why `matcher(input).find()` rather than `test(input)`: `test` runs re2js's lazy DFA, fast on
 * ordinary patterns but, on patterns whose DFA states keep changing (many overlapping bounded
 * repeats), it builds a new state per character at several times the cost of the NFA. `find`
 * runs the one-pass matcher, the bit-state backtracker (each instruction visited at most once per
 * position) or the NFA, all O(input length x program size) with a small constant, so the worst
 * case stays close to the ordinary one (measured in docs/operations/benchmarks.md).
 */
export const compile = (patterns: ReadonlyArray<string>): Tester => {
  const program = programOf(patterns)
  if (program === undefined) return () => false
  const { re, size } = program
  return (input) => {
    RegexBudget.charge(size, input.length)
    return re.matcher(input).find()
  }
}

interface Program {
  readonly re: RE2JS
  readonly size: number
}

/**
 * Compiled programs by source, shared by every snapshot compile: a write recompiles its project's
 * snapshot, and without this every `matches` condition of the project would be compiled again
 * (a 1,000-instruction program takes about half a millisecond). Bounded: emptied when full.
 */
const PROGRAMS = new Map<string, Program | undefined>()
const PROGRAMS_MAX = 4096

/**
 * The program of a condition's patterns: the patterns with a `syntaxProblem` are dropped (a stored
 * pattern that is not valid RE2 never matches; checked one by one, since a broken pattern could
 * otherwise change its neighbours' meaning inside the alternation), undefined when none is left.
 */
const programOf = (patterns: ReadonlyArray<string>): Program | undefined => {
  const source = alternation(patterns)
  if (PROGRAMS.has(source)) return PROGRAMS.get(source)
  // Each pattern compiled alone (the check) and in its group; a single valid pattern's group is
  // the program itself, so the common one-pattern condition costs two compiles, not three.
  const groups: Array<RE2JS> = []
  const valid: Array<string> = []
  for (const p of patterns) {
    const group = groupOf(p)
    if (group !== undefined) {
      groups.push(group)
      valid.push(p)
    }
  }
  let program: Program | undefined
  if (valid.length > 0) {
    const re = valid.length === 1 ? groups[0]! : RE2JS.compile(alternation(valid))
    program = { re, size: re.programSize() }
  }
  if (PROGRAMS.size >= PROGRAMS_MAX) PROGRAMS.clear()
  PROGRAMS.set(source, program)
  return program
}

/**
 * The engine the compiler takes (conditions/RegexEngine.ts). The server imports this module
 * eagerly; the client SDK imports it dynamically, so that it stays out of the client's main bundle.
 */
export const engine: RegexEngine = { compile }
