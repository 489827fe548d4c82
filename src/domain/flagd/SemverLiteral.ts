/**
 * flagd's `sem_ver` operator in Flagport conditions. flagd reads the version in the flag leniently
 * (a leading `v`, `1` or `1.2` for `1.0.0` / `1.2.0`); the literal is normalised here to the strict
 * version flagd compares with. Each of flagd's comparison signs becomes Flagport's `semverEq`,
 * `semverLt` and `semverGt`, combined where flagd's sign needs two (`<=` is less or equal), since
 * a negated condition alone would also match an attribute that is not a version, where flagd's
 * `sem_ver` is false. `^` (same major) and `~` (same major and minor) become ranges: not below the
 * lowest version of the line (`M.0.0-0`) and below the next line's; the second condition only
 * holds for a version, so the negated first one is exact beside it.
 */
import * as Semver from "../conditions/Semver.js"
import { and, atom, type Formula, or } from "./Formula.js"
import { refuse, type Path, show } from "./Refusal.js"

const PARTIAL = /^\d+(\.\d+)?$/

/** The strict version flagd compares a literal as, or undefined when flagd cannot read it. */
export const normalizeVersion = (raw: unknown): string | undefined => {
  if (typeof raw !== "string" && typeof raw !== "number") return undefined
  const text = String(raw).replace(/^[vV]/, "")
  if (Semver.isValid(text)) return text
  if (!PARTIAL.test(text)) return undefined
  const parts = text.split(".").map((part) => BigInt(part).toString())
  while (parts.length < 3) parts.push("0")
  return parts.join(".")
}

const next = (digits: string): string => (BigInt(digits) + 1n).toString()

type Sign = "=" | "!=" | "<" | "<=" | ">" | ">=" | "^" | "~"
const SIGNS: ReadonlyArray<Sign> = ["=", "!=", "<", "<=", ">", ">=", "^", "~"]

/** The sign with its sides swapped (`1.0.0 < v` is `v > 1.0.0`). */
const FLIPPED: Record<Sign, Sign> = { "=": "=", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<=", "^": "^", "~": "~" }

/**
 * `sem_ver` on `attribute` against `literal`, read `attribute SIGN literal` (`flipped`: the literal
 * came first). An absent attribute is never a version, so flagd's answer for it is false.
 */
export const semverFormula = (attribute: string, rawSign: unknown, literal: unknown, flipped: boolean, path: Path): Formula => {
  if (typeof rawSign !== "string" || !(SIGNS as ReadonlyArray<string>).includes(rawSign)) {
    return refuse([...path, 1], `unknown "sem_ver" comparison ${show(rawSign)} (flagd knows ${SIGNS.join(" ")})`)
  }
  const version = normalizeVersion(literal)
  if (version === undefined) return refuse(path, `${show(literal)} is not a version flagd can read, so this "sem_ver" is never true`)
  const sign = flipped ? FLIPPED[rawSign as Sign] : (rawSign as Sign)
  const test = (operator: "semverEq" | "semverLt" | "semverGt", value: string) => atom({ attribute, operator, values: [value] }, false)
  const atLeast = (value: string) => or([test("semverGt", value), test("semverEq", value)])
  const inLine = (low: string, high: string) =>
    and([atom({ attribute, operator: "semverLt", values: [low], negate: true }, false), test("semverLt", high)])
  const parsed = Semver.parse(version)!
  switch (sign) {
    case "=":
      return test("semverEq", version)
    case "!=":
      return or([test("semverLt", version), test("semverGt", version)])
    case "<":
      return test("semverLt", version)
    case "<=":
      return or([test("semverLt", version), test("semverEq", version)])
    case ">":
      return test("semverGt", version)
    case ">=":
      return atLeast(version)
    case "^":
      return inLine(`${parsed.major}.0.0-0`, `${next(parsed.major)}.0.0-0`)
    case "~":
      return inLine(`${parsed.major}.${parsed.minor}.0-0`, `${parsed.major}.${next(parsed.minor)}.0-0`)
  }
}
