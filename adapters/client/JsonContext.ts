/**
 * Contexts as JSON carries them. Remote evaluation sees a context after `JSON.stringify`, so local
 * evaluation must see the same values, or the two could disagree: a `Date` becomes its ISO 8601
 * string (date operators then work on OpenFeature contexts), `undefined`, functions and symbols
 * disappear, `NaN` and infinities become null (absent), a `BigInt` becomes a number when it is
 * exact, else its decimal string.
 *
 * The common context (string, boolean and finite number attributes, arrays of them) is passed
 * through untouched, so evaluation allocates nothing for it; only a context holding something else
 * is copied.
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
