/**
 * flagd's `{"var": ...}` as a Flagport attribute. OpenFeature's targeting key is Flagport's context
 * key (`attribute: "key"`); every other flat name reads the same attribute. What Flagport cannot
 * read the same way is refused: nested paths (Flagport attributes are flat), a default value,
 * the `$flagd` properties flagd adds (the flag's key, the evaluation time) and an attribute named
 * `key` (Flagport reads that name as the context key).
 */
import { refuse, type Path, show } from "./Refusal.js"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The operand of `var`, when `expression` is `{"var": ...}` and nothing else. */
export const varOperand = (expression: unknown): { readonly operand: unknown } | undefined =>
  isRecord(expression) && Object.keys(expression).length === 1 && "var" in expression ? { operand: expression.var } : undefined

export const isVar = (expression: unknown): boolean => varOperand(expression) !== undefined

/** The Flagport attribute a `var` reads; refuses what has no flat equivalent. */
export const attributeOf = (expression: unknown, path: Path): string => {
  const found = varOperand(expression)
  if (found === undefined) return refuse(path, `expected {"var": NAME}, got ${show(expression)}`)
  const at = [...path, "var"]
  let name = found.operand
  if (Array.isArray(name)) {
    if (name.length > 1) return refuse(at, `"var" with a default value (${show(name)}) has no Flagport equivalent: an absent attribute never matches`)
    name = name[0]
  }
  if (typeof name !== "string" || name.length === 0) return refuse(at, `"var" must name a context attribute, got ${show(found.operand)}`)
  if (name === "$flagd.timestamp") {
    return refuse(at, `"$flagd.timestamp" (the evaluation time) has no Flagport condition; use a scheduled change instead`)
  }
  if (name === "$flagd" || name.startsWith("$flagd.")) return refuse(at, `${JSON.stringify(name)} is a property flagd adds; Flagport has no such attribute`)
  if (name === "targetingKey") return "key"
  if (name === "key") {
    return refuse(at, `an attribute named "key" cannot be imported: Flagport reads "key" as the targeting key`)
  }
  if (name.includes(".")) {
    return refuse(at, `the nested attribute path ${JSON.stringify(name)} has no Flagport equivalent: Flagport attributes are flat`)
  }
  return name
}
