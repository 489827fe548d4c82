/**
 * Semantic versions (semver.org 2.0.0): parsing and precedence.
 *
 * Numeric identifiers are kept as digit strings and compared by length, then
 * lexically, so versions beyond Number.MAX_SAFE_INTEGER still order correctly.
 */

export interface Semver {
  readonly major: string
  readonly minor: string
  readonly patch: string
  /** Pre-release identifiers; numeric ones are digit strings flagged in `preNumeric`. */
  readonly pre: ReadonlyArray<string>
  readonly preNumeric: ReadonlyArray<boolean>
}

// The official regular expression from semver.org (no leading "v", no partial versions).
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/

const NUMERIC = /^\d+$/

/** The parsed version, or `undefined` when the input is not a semver 2.0.0 string. */
export const parse = (input: unknown): Semver | undefined => {
  if (typeof input !== "string" || input.length > 256) return undefined
  const m = SEMVER.exec(input)
  if (m === null) return undefined
  const pre = m[4] === undefined ? [] : m[4].split(".")
  return { major: m[1]!, minor: m[2]!, patch: m[3]!, pre, preNumeric: pre.map((p) => NUMERIC.test(p)) }
}

export const isValid = (input: unknown): boolean => parse(input) !== undefined

const compareDigits = (a: string, b: string): number =>
  a.length !== b.length ? (a.length < b.length ? -1 : 1) : a < b ? -1 : a > b ? 1 : 0

/** Precedence per semver 2.0.0 §11: -1, 0 or 1. Build metadata is ignored. */
export const compare = (a: Semver, b: Semver): number => {
  const core = compareDigits(a.major, b.major) || compareDigits(a.minor, b.minor) || compareDigits(a.patch, b.patch)
  if (core !== 0) return core
  // A version without pre-release identifiers has higher precedence than one with them.
  if (a.pre.length === 0) return b.pre.length === 0 ? 0 : 1
  if (b.pre.length === 0) return -1
  const n = Math.min(a.pre.length, b.pre.length)
  for (let i = 0; i < n; i++) {
    const an = a.preNumeric[i]!
    const bn = b.preNumeric[i]!
    if (an && bn) {
      const c = compareDigits(a.pre[i]!, b.pre[i]!)
      if (c !== 0) return c
    } else if (an !== bn) {
      // Numeric identifiers have lower precedence than alphanumeric ones.
      return an ? -1 : 1
    } else if (a.pre[i] !== b.pre[i]) {
      return a.pre[i]! < b.pre[i]! ? -1 : 1
    }
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1
}
