/**
 * Contexts as JSON carries them. Remote evaluation sees a context after `JSON.stringify`, so local
 * evaluation must see the same values, or the two could disagree: a `Date` becomes its ISO 8601
 * string (date operators then work on OpenFeature contexts), `undefined`, functions and symbols
 * disappear, `NaN` and infinities become null (absent), a `BigInt` becomes a number when it is
 * exact, else its decimal string.
 *
 * The common context (string, boolean and finite number attributes, arrays of them) is passed
 * through untouched, so evaluation allocates nothing for it; only a context holding something else
 * is copied. For one flag, `forFlag` checks only the attributes that flag can read: the rest
 * cannot change its result, and a typed getter stays near the bare evaluator.
 */
import type { LocalContext } from "./Core.js"
import type { FlagContext } from "./Types.js"

const isPlainScalar = (value: unknown): boolean => {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true
    case "number":
      return value - value === 0 // finite
    default:
      return false
  }
}

const isPlainValue = (value: unknown): boolean => {
  if (isPlainScalar(value) || value === null) return true
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) if (!isPlainScalar(value[i])) return false
  return true
}

const bigints = (_key: string, value: unknown): unknown =>
  typeof value === "bigint" ? (Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()) : value

/** One attribute as JSON would carry it; undefined when JSON drops it (or it cannot be serialized). */
const asJson = (value: unknown): unknown => {
  try {
    const text = JSON.stringify(value, bigints)
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined // a cycle or a throwing toJSON: the attribute is absent
  }
}

/** The context the evaluator receives. Never throws. */
export const toLocalContext = (context: FlagContext | null | undefined): LocalContext => {
  if (typeof context !== "object" || context === null) return {}
  const attributes = context.attributes
  if (typeof attributes !== "object" || attributes === null) return context as LocalContext
  try {
    let plain = true
    for (const name in attributes) {
      if (!isPlainValue(attributes[name])) {
        plain = false
        break
      }
    }
    if (plain) return context as LocalContext
    const converted: Record<string, unknown> = {}
    for (const name of Object.keys(attributes)) {
      const value = asJson(attributes[name])
      if (value === undefined) continue
      if (name === "__proto__") Object.defineProperty(converted, name, { value, enumerable: true, writable: true, configurable: true })
      else converted[name] = value
    }
    return { key: context.key, attributes: converted }
  } catch {
    // Hostile attributes (throwing getters, proxies): evaluate without them.
    return { key: context.key }
  }
}

/** True when every attribute a flag can read is a value JSON carries unchanged (see `plainCheck`). */
export type PlainCheck = (attributes: object) => boolean

/**
 * The check for the attributes `names`, as one generated function with the names written in
 * (`v = a["country"]; if (typeof v !== "string" && v !== undefined && !p(v)) return false; ...`):
 * property loads with literal names stay fast where a loop over reader functions would make one
 * megamorphic call per attribute. Names enter the source only through `JSON.stringify`, as in
 * the domain's evaluation/jit/PropertyReader.ts; where code generation is forbidden (CSP, some edge runtimes)
 * the same check runs as a loop.
 */
export const plainCheck = (names: ReadonlyArray<string>): PlainCheck => {
  if (names.length === 0) return () => true
  const loop: PlainCheck = (attributes) => {
    for (const name of names) {
      const value = (attributes as Record<string, unknown>)[name]
      if (typeof value !== "string" && value !== undefined && !isPlainValue(value)) return false
    }
    return true
  }
  if (names.length > 64) return loop
  try {
    const body = names
      .map((name) => `v = a[${JSON.stringify(name)}]; if (typeof v !== "string" && v !== undefined && !p(v)) return false;`)
      .join("\n")
    const make = new Function("p", `"use strict"; return function plainAttributes(a) { var v;\n${body}\nreturn true }`)
    const check = make(isPlainValue) as unknown
    return typeof check === "function" ? (check as PlainCheck) : loop
  } catch {
    return loop
  }
}

/** The context for evaluating a flag whose readable attributes `plain` checks. Never throws. */
export const forFlag = (context: FlagContext | null | undefined, plain: PlainCheck): LocalContext => {
  if (typeof context !== "object" || context === null) return {}
  const attributes = context.attributes
  if (typeof attributes !== "object" || attributes === null) return context as LocalContext
  try {
    return plain(attributes) ? (context as LocalContext) : toLocalContext(context)
  } catch {
    return toLocalContext(context)
  }
}
