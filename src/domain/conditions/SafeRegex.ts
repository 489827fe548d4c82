/**
 * Regular expressions for the `matches` operator, safe from catastrophic backtracking.
 *
 * Two independent guards (see docs/evaluation.md):
 * 1. Evaluation never backtracks: patterns are compiled to a Thompson NFA and run by
 *    set simulation, O(input length x automaton size) for every pattern. Automaton
 *    size and input length are capped, so one test costs a bounded amount of work.
 * 2. On write, `check` also refuses the shapes that make backtracking engines explode
 *    (a quantified group containing a quantifier, e.g. `^(a+)+$`; an alternation
 *    under a quantifier whose branches can start with the same character, e.g.
 *    `(a|ab)*`), backreferences and lookaround. This keeps stored patterns portable
 *    to evaluators in other languages whose native engine backtracks.
 */
import { intersects, MAX_REPEAT, type Node, normalize, parse, type Ranges, RegexSyntaxError, WORD_RANGES } from "./RegexSyntax.js"

export const MAX_PATTERN_LENGTH = 500
export const MAX_STATES = 1000
/** Longer subject strings never match (the simulation is linear, but still proportional). */
export const MAX_INPUT_LENGTH = 4096

const SET = 0
const SPLIT = 1
const ASSERT = 2
const MATCH = 3
const A_START = 0
const A_END = 1
const A_WORD = 2
const A_NOT_WORD = 3

export interface SafeRegex {
  readonly source: string
  /** True when the pattern matches somewhere in `input` (like RegExp.prototype.test). */
  readonly test: (input: string) => boolean
}

const nullable = (node: Node): boolean => {
  switch (node.t) {
    case "set":
      return false
    case "assert":
      return true
    case "seq":
      return node.items.every(nullable)
    case "alt":
      return node.alts.some(nullable)
    case "repeat":
      return node.min === 0 || nullable(node.body)
  }
}

/** Characters that can start a match of `node`. */
const first = (node: Node): Ranges => {
  switch (node.t) {
    case "set":
      return node.ranges
    case "assert":
      return []
    case "seq": {
      const out: Array<number> = []
      for (const item of node.items) {
        out.push(...first(item))
        if (!nullable(item)) break
      }
      return normalize(out)
    }
    case "alt":
      return normalize(node.alts.flatMap((a) => [...first(a)]))
    case "repeat":
      return first(node.body)
  }
}

const containsRepeat = (node: Node): boolean =>
  node.t === "repeat" ||
  (node.t === "seq" && node.items.some(containsRepeat)) ||
  (node.t === "alt" && node.alts.some(containsRepeat))

/** Problems a backtracking engine would have; `undefined` when the shape is unambiguous enough. */
const ambiguity = (node: Node, underLoop: boolean): string | undefined => {
  switch (node.t) {
    case "set":
    case "assert":
      return undefined
    case "seq":
      for (const item of node.items) {
        const p = ambiguity(item, underLoop)
        if (p !== undefined) return p
      }
      return undefined
    case "alt": {
      if (underLoop) {
        const firsts = node.alts.map(first)
        for (let i = 0; i < firsts.length; i++) {
          for (let j = i + 1; j < firsts.length; j++) {
            if (intersects(firsts[i]!, firsts[j]!)) {
              return "alternatives under a quantifier may start with the same character (ambiguous, backtracks exponentially)"
            }
          }
        }
        if (node.alts.filter(nullable).length > 1) return "more than one empty alternative under a quantifier"
      }
      for (const alt of node.alts) {
        const p = ambiguity(alt, underLoop)
        if (p !== undefined) return p
      }
      return undefined
    }
    case "repeat": {
      const loops = node.max > 1
      if (loops && containsRepeat(node.body)) {
        return "nested quantifiers (a quantified group containing a quantifier, e.g. (a+)+) can backtrack catastrophically"
      }
      return ambiguity(node.body, underLoop || loops)
    }
  }
}

class TooLarge extends Error {}

interface Automaton {
  kind: Array<number>
  out1: Array<number>
  out2: Array<number>
  ranges: Array<Ranges>
  start: number
}

const build = (root: Node): Automaton => {
  const a: Automaton = { kind: [], out1: [], out2: [], ranges: [], start: 0 }
  const add = (kind: number, out1: number, out2: number, ranges: Ranges): number => {
    if (a.kind.length >= MAX_STATES) throw new TooLarge()
    a.kind.push(kind)
    a.out1.push(out1)
    a.out2.push(out2)
    a.ranges.push(ranges)
    return a.kind.length - 1
  }
  // Builds backwards: every fragment is compiled knowing the state that follows it.
  const compile = (node: Node, next: number): number => {
    switch (node.t) {
      case "set":
        return add(SET, next, -1, node.ranges)
      case "assert": {
        const kind = { start: A_START, end: A_END, word: A_WORD, notWord: A_NOT_WORD }[node.kind]
        return add(ASSERT, next, kind, [])
      }
      case "seq": {
        let s = next
        for (let i = node.items.length - 1; i >= 0; i--) s = compile(node.items[i]!, s)
        return s
      }
      case "alt": {
        const starts = node.alts.map((alt) => compile(alt, next))
        let s = starts[starts.length - 1]!
        for (let i = starts.length - 2; i >= 0; i--) s = add(SPLIT, starts[i]!, s, [])
        return s
      }
      case "repeat": {
        let s = next
        if (node.max === Infinity) {
          const loop = add(SPLIT, -1, next, [])
          a.out1[loop] = compile(node.body, loop)
          s = loop
        } else {
          for (let k = 0; k < node.max - node.min; k++) s = add(SPLIT, compile(node.body, s), next, [])
        }
        for (let k = 0; k < node.min; k++) s = compile(node.body, s)
        return s
      }
    }
  }
  a.start = compile(root, add(MATCH, -1, -1, []))
  return a
}

const isWord = (cp: number): boolean => cp >= 0 && intersects(WORD_RANGES, [cp, cp])

const inRanges = (r: Ranges, cp: number): boolean => {
  if (r.length === 2) return cp >= r[0]! && cp <= r[1]!
  let lo = 0
  let hi = (r.length >> 1) - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (cp < r[mid * 2]!) hi = mid - 1
    else if (cp > r[mid * 2 + 1]!) lo = mid + 1
    else return true
  }
  return false
}

/** True when every match must begin at position 0 (the pattern starts with `^` on every branch). */
const anchoredAtStart = (node: Node): boolean =>
  node.t === "assert"
    ? node.kind === "start"
    : node.t === "seq"
      ? node.items.length > 0 && anchoredAtStart(node.items[0]!)
      : node.t === "alt"
        ? node.alts.every(anchoredAtStart)
        : false

const simulator = (a: Automaton, anchored: boolean): ((input: string) => boolean) => {
  const n = a.kind.length
  const kind = Int8Array.from(a.kind)
  const out1 = Int32Array.from(a.out1)
  const out2 = Int32Array.from(a.out2)
  const ranges = a.ranges
  const start = a.start
  // Buffers are allocated once per pattern; evaluation is synchronous, so they are never shared mid-use.
  let cur = new Int32Array(n)
  let nxt = new Int32Array(n)
  const mark = new Uint32Array(n)
  const stack = new Int32Array(n + 1)
  let gen = 0
  let curLen = 0
  let nxtLen = 0

  /** Adds `s` and its epsilon closure to `nxt` at a position between code points `prev` and `next`. */
  const addClosure = (s0: number, prev: number, next: number): boolean => {
    let sp = 0
    stack[sp++] = s0
    while (sp > 0) {
      const s = stack[--sp]!
      if (s < 0 || mark[s] === gen) continue
      mark[s] = gen
      switch (kind[s]) {
        case MATCH:
          return true
        case SET:
          nxt[nxtLen++] = s
          break
        case SPLIT:
          stack[sp++] = out2[s]!
          stack[sp++] = out1[s]!
          break
        case ASSERT: {
          const k = out2[s]
          const ok =
            k === A_START ? prev < 0 : k === A_END ? next < 0 : k === A_WORD ? isWord(prev) !== isWord(next) : isWord(prev) === isWord(next)
          if (ok) stack[sp++] = out1[s]!
          break
        }
      }
    }
    return false
  }

  return (input: string): boolean => {
    if (input.length > MAX_INPUT_LENGTH) return false
    gen = (gen + 1) >>> 0 || 1
    if (gen === 1) mark.fill(0)
    nxtLen = 0
    let i = 0
    let next = input.length > 0 ? input.codePointAt(0)! : -1
    if (addClosure(start, -1, next)) return true
    while (i < input.length) {
      const c = next
      i += c > 0xffff ? 2 : 1
      next = i < input.length ? input.codePointAt(i)! : -1
      const tmp = cur
      cur = nxt
      nxt = tmp
      curLen = nxtLen
      nxtLen = 0
      gen = (gen + 1) >>> 0 || 1
      if (gen === 1) mark.fill(0)
      for (let j = 0; j < curLen; j++) {
        const s = cur[j]!
        if (inRanges(ranges[s]!, c) && addClosure(out1[s]!, c, next)) return true
      }
      // Unanchored search: a match may also begin at this position (never for `^...` patterns,
      // which can stop as soon as no thread is left).
      if (anchored) {
        if (nxtLen === 0) return false
      } else if (addClosure(start, c, next)) return true
    }
    return false
  }
}

const prepare = (pattern: string): { node: Node; automaton: Automaton } | string => {
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern longer than ${MAX_PATTERN_LENGTH} characters`
  try {
    new RegExp(pattern, "u")
  } catch {
    return "is not a valid regular expression"
  }
  let node: Node
  try {
    node = parse(pattern)
  } catch (e) {
    if (e instanceof RegexSyntaxError) return e.message
    throw e
  }
  try {
    return { node, automaton: build(node) }
  } catch (e) {
    if (e instanceof TooLarge) return `pattern too large (over ${MAX_STATES} automaton states; repetition bounds are at most ${MAX_REPEAT})`
    throw e
  }
}

/** Why `pattern` is refused for a `matches` condition, or `undefined` when it is accepted. */
export const check = (pattern: string): string | undefined => {
  const prepared = prepare(pattern)
  if (typeof prepared === "string") return prepared
  return ambiguity(prepared.node, false)
}

/**
 * Compiles a pattern for evaluation. Only the automaton limits apply here: a stored pattern that
 * slipped past `check` still runs in linear time. Throws when the pattern cannot be compiled.
 */
export const compile = (pattern: string): SafeRegex => {
  const prepared = prepare(pattern)
  if (typeof prepared === "string") throw new Error(`invalid pattern: ${prepared}`)
  return { source: pattern, test: simulator(prepared.automaton, anchoredAtStart(prepared.node)) }
}
