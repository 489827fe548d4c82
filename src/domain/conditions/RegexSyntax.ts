/**
 * A parser for the regular-expression subset that `matches` conditions accept.
 *
 * The subset is ECMAScript's `u` mode minus everything that needs backtracking
 * (backreferences, lookaround) or Unicode tables (\p{...}): literals and escapes,
 * `.`, character classes, `\d \w \s` and their negations, `^ $ \b \B`, groups
 * (capturing, named, non-capturing), alternation, and the quantifiers
 * `* + ? {n} {n,} {n,m}` (lazy forms accepted; for a yes/no match they mean the same).
 * Character sets are sorted, merged code-point ranges, so the matcher never
 * needs a second representation.
 */

/** Flat list of inclusive ranges: [lo0, hi0, lo1, hi1, ...], sorted and merged. */
export type Ranges = ReadonlyArray<number>

export type Node =
  | { readonly t: "set"; readonly ranges: Ranges }
  | { readonly t: "seq"; readonly items: ReadonlyArray<Node> }
  | { readonly t: "alt"; readonly alts: ReadonlyArray<Node> }
  | { readonly t: "repeat"; readonly body: Node; readonly min: number; readonly max: number }
  | { readonly t: "assert"; readonly kind: "start" | "end" | "word" | "notWord" }

export class RegexSyntaxError extends Error {}

const MAX_CODE_POINT = 0x10ffff
/** Repetition bounds above this are refused: they only inflate the automaton. */
export const MAX_REPEAT = 100

export const normalize = (pairs: Array<number>): Ranges => {
  const list: Array<[number, number]> = []
  for (let i = 0; i < pairs.length; i += 2) list.push([pairs[i]!, pairs[i + 1]!])
  list.sort((a, b) => a[0] - b[0])
  const out: Array<number> = []
  for (const [lo, hi] of list) {
    const n = out.length
    if (n > 0 && lo <= out[n - 1]! + 1) out[n - 1] = Math.max(out[n - 1]!, hi)
    else out.push(lo, hi)
  }
  return out
}

export const complement = (ranges: Ranges): Ranges => {
  const out: Array<number> = []
  let next = 0
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! > next) out.push(next, ranges[i]! - 1)
    next = ranges[i + 1]! + 1
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT)
  return out
}

export const intersects = (a: Ranges, b: Ranges): boolean => {
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i + 1]! < b[j]!) i += 2
    else if (b[j + 1]! < a[i]!) j += 2
    else return true
  }
  return false
}

const DIGIT: Ranges = [0x30, 0x39]
const WORD: Ranges = normalize([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a])
// ECMAScript WhiteSpace + LineTerminator.
const SPACE: Ranges = normalize([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff
])
// `.` without the `s` flag: anything but a line terminator.
const DOT: Ranges = complement(normalize([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]))
export const WORD_RANGES = WORD

const SYNTAX = "^$\\.*+?()[]{}|/"

const classEscape = (c: string): Ranges | undefined => {
  switch (c) {
    case "d":
      return DIGIT
    case "D":
      return complement(DIGIT)
    case "w":
      return WORD
    case "W":
      return complement(WORD)
    case "s":
      return SPACE
    case "S":
      return complement(SPACE)
    default:
      return undefined
  }
}

/** Parses `source`; throws RegexSyntaxError with a human message on anything outside the subset. */
export const parse = (source: string): Node => {
  let pos = 0
  const fail = (message: string): never => {
    throw new RegexSyntaxError(`${message} at position ${pos}`)
  }
  const peek = (): string | undefined => source[pos]
  const codePoint = (): number => {
    const cp = source.codePointAt(pos)!
    pos += cp > 0xffff ? 2 : 1
    return cp
  }
  const hex = (digits: number): number => {
    const text = source.slice(pos, pos + digits)
    if (text.length !== digits || !/^[0-9a-fA-F]+$/.test(text)) fail("invalid hexadecimal escape")
    pos += digits
    return parseInt(text, 16)
  }
  // An escape that denotes one code point (shared by atoms and classes); `pos` is after the backslash.
  const charEscape = (inClass: boolean): number => {
    const c = source[pos++]
    switch (c) {
      case undefined:
        return fail("pattern ends with a backslash")
      case "n":
        return 0x0a
      case "r":
        return 0x0d
      case "t":
        return 0x09
      case "f":
        return 0x0c
      case "v":
        return 0x0b
      case "0":
        if (/\d/.test(peek() ?? "")) fail("octal escapes are not supported")
        return 0
      case "x":
        return hex(2)
      case "u": {
        if (peek() === "{") {
          const end = source.indexOf("}", pos)
          if (end < 0) fail("unterminated \\u{...} escape")
          const text = source.slice(pos + 1, end)
          if (!/^[0-9a-fA-F]{1,6}$/.test(text) || parseInt(text, 16) > MAX_CODE_POINT) fail("invalid \\u{...} escape")
          pos = end + 1
          return parseInt(text, 16)
        }
        const unit = hex(4)
        // A surrogate pair written as two \u escapes is one code point, as in `u` mode.
        if (unit >= 0xd800 && unit <= 0xdbff && source.startsWith("\\u", pos) && source[pos + 2] !== "{") {
          const save = pos
          pos += 2
          const low = hex(4)
          if (low >= 0xdc00 && low <= 0xdfff) return 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
          pos = save
        }
        return unit
      }
      default:
        if (/[1-9]/.test(c)) return fail("backreferences are not supported")
        if (c === "k") return fail("named backreferences are not supported")
        if (c === "p" || c === "P") return fail("Unicode property escapes are not supported")
        if (c === "c") return fail("control escapes are not supported")
        if (SYNTAX.includes(c) || (inClass && c === "-")) {
          pos--
          return codePoint()
        }
        return fail(`unknown escape \\${c}`)
    }
  }
  const parseClass = (): Node => {
    // `pos` is after "[".
    let negated = false
    if (peek() === "^") {
      negated = true
      pos++
    }
    const pairs: Array<number> = []
    const classAtom = (): number | Ranges => {
      if (peek() === "\\") {
        pos++
        const set = classEscape(peek() ?? "")
        if (set !== undefined) {
          pos++
          return set
        }
        if (peek() === "b") {
          pos++
          return 0x08
        }
        return charEscape(true)
      }
      return codePoint()
    }
    while (peek() !== "]") {
      if (pos >= source.length) fail("unterminated character class")
      const from = classAtom()
      if (peek() === "-" && source[pos + 1] !== "]" && pos + 1 < source.length) {
        pos++
        const to = classAtom()
        if (typeof from !== "number" || typeof to !== "number") fail("a class escape cannot bound a range")
        if ((to as number) < (from as number)) fail("range out of order in character class")
        pairs.push(from as number, to as number)
      } else if (typeof from === "number") pairs.push(from, from)
      else pairs.push(...from)
    }
    pos++
    const ranges = normalize(pairs)
    return { t: "set", ranges: negated ? complement(ranges) : ranges }
  }
  const parseAtom = (): Node => {
    const c = peek()!
    switch (c) {
      case "^":
        pos++
        return { t: "assert", kind: "start" }
      case "$":
        pos++
        return { t: "assert", kind: "end" }
      case ".":
        pos++
        return { t: "set", ranges: DOT }
      case "[":
        pos++
        return parseClass()
      case "(": {
        pos++
        if (peek() === "?") {
          const next = source[pos + 1]
          if (next === ":") pos += 2
          else if (next === "=" || next === "!") fail("lookahead is not supported")
          else if (next === "<" && (source[pos + 2] === "=" || source[pos + 2] === "!")) fail("lookbehind is not supported")
          else if (next === "<") {
            const end = source.indexOf(">", pos)
            if (end < 0) fail("unterminated group name")
            pos = end + 1
          } else fail("unknown group syntax")
        }
        const body = parseAlternation()
        if (peek() !== ")") fail("missing )")
        pos++
        return body
      }
      case "\\": {
        pos++
        const set = classEscape(peek() ?? "")
        if (set !== undefined) {
          pos++
          return { t: "set", ranges: set }
        }
        if (peek() === "b" || peek() === "B") {
          return { t: "assert", kind: source[pos++] === "b" ? "word" : "notWord" }
        }
        const cp = charEscape(false)
        return { t: "set", ranges: [cp, cp] }
      }
      case ")":
        return fail("unmatched )")
      case "*":
      case "+":
      case "?":
      case "{":
      case "}":
      case "]":
        return fail(`nothing to repeat or lone ${c}`)
      default: {
        const cp = codePoint()
        return { t: "set", ranges: [cp, cp] }
      }
    }
  }
  const bound = (text: string): number => {
    const n = Number(text)
    if (n > MAX_REPEAT) fail(`repetition bound above ${MAX_REPEAT}`)
    return n
  }
  const parseQuantifier = (atom: Node): Node => {
    const c = peek()
    let min: number
    let max: number
    if (c === "*") [min, max] = [0, Infinity]
    else if (c === "+") [min, max] = [1, Infinity]
    else if (c === "?") [min, max] = [0, 1]
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos))
      if (m === null) return fail("malformed {n,m} quantifier")
      min = bound(m[1]!)
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : bound(m[3]!)
      if (max < min) fail("quantifier range out of order")
      pos += m[0].length - 1
    } else return atom
    pos++
    if (peek() === "?") pos++
    if (atom.t === "assert") fail("an assertion cannot be repeated")
    return { t: "repeat", body: atom, min, max }
  }
  const parseSequence = (): Node => {
    const items: Array<Node> = []
    while (pos < source.length && peek() !== "|" && peek() !== ")") items.push(parseQuantifier(parseAtom()))
    return items.length === 1 ? items[0]! : { t: "seq", items }
  }
  const parseAlternation = (): Node => {
    const alts = [parseSequence()]
    while (peek() === "|") {
      pos++
      alts.push(parseSequence())
    }
    return alts.length === 1 ? alts[0]! : { t: "alt", alts }
  }
  const node = parseAlternation()
  if (pos < source.length) fail("unmatched )")
  return node
}
