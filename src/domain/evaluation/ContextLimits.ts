/**
 * The evaluation context's limits (Limits.ts, scope "context"), checked before any evaluation.
 *
 * A context comes from anyone holding a client key, which lives in browsers and apps and must be
 * treated as public, so its size is what bounds the work of an evaluation request (see
 * docs/operations/operating.md, "What a request can cost"). The check is one walk over the value that stops
 * at the first limit broken: it reads at most the limits' worth of the context (its recursion is
 * at most `contextDepth` deep), so a hostile context costs no more to refuse than to accept.
 */
import type { Problem } from "../Errors.js"
import { atMost, atMostLength, limit } from "../Limits.js"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** `context` + `key` -> `context.key`; at the top level (`""`), just `key`. */
const join = (path: string, name: string): string => (path === "" ? name : `${path}.${name}`)

/**
 * A broken limit found inside an attribute value: its message and the steps from that value down
 * to where it was found (property names and array indexes, innermost last). The path text is
 * built only for a problem, so an accepted context (every request) allocates none.
 */
interface Found {
  readonly message: string
  readonly steps: Array<string | number>
}

const found = (message: string): Found => ({ message, steps: [] })

const within = (step: string | number, inner: Found): Found => {
  inner.steps.unshift(step)
  return inner
}

const pathOf = (base: string, steps: ReadonlyArray<string | number>): string =>
  steps.reduce<string>((path, step) => (typeof step === "number" ? `${path}[${step}]` : join(path, step)), base)

/**
 * An upper bound of the length of `JSON.stringify` of everything `valueProblem` walked, added up
 * as it walks (reset by `contextLimitProblem`): a string encodes to at most 6 characters per
 * UTF-16 unit (`\uXXXX`) and its quotes, a number to at most 25 characters (`-0.0000012345678901234567`;
 * 32 counted), `true`/`false`/`null` to at most 5, and an object or array adds its brackets, a comma
 * per entry and each property's name and colon. Anything else (a prototype other than an object's
 * or an array's, a `toJSON` property, a bigint...) makes it infinite: the context is then encoded to
 * be measured, as it always was. When the bound is within `contextSize`, the encoding is skipped.
 */
let encodedAtMost = 0

const PLAIN = Object.prototype

/** The bound of a value that is neither a string nor an object (see `encodedAtMost`). */
const scalarBound = (value: unknown): number =>
  typeof value === "number" ? 32 : typeof value === "boolean" || value === undefined ? 9 : Infinity

/** The first limit that `value` (an attribute value `depth` levels deep) breaks, if any. */
const valueProblem = (value: unknown, depth: number): Found | undefined => {
  if (typeof value === "string") {
    encodedAtMost += 6 * value.length + 2
    return value.length > limit("contextStringLength") ? found(atMostLength("contextStringLength")) : undefined
  }
  if (typeof value !== "object" || value === null) {
    encodedAtMost += value === null ? 4 : scalarBound(value)
    return undefined
  }
  if (depth >= limit("contextDepth")) return found(`must nest arrays and objects at most ${limit("contextDepth")} levels deep`)
  if (Array.isArray(value)) {
    if (value.length > limit("contextArrayLength")) return found(atMost("contextArrayLength"))
    encodedAtMost += Object.getPrototypeOf(value) === Array.prototype ? 2 + value.length : Infinity
    for (let i = 0; i < value.length; i++) {
      const p = valueProblem(value[i], depth + 1)
      if (p !== undefined) return within(i, p)
    }
    return undefined
  }
  const keys = Object.keys(value)
  if (keys.length > limit("contextArrayLength")) return found(`must have at most ${limit("contextArrayLength")} entries`)
  const proto: unknown = Object.getPrototypeOf(value)
  encodedAtMost += proto === PLAIN || proto === null ? 2 : Infinity
  for (const key of keys) {
    if (key.length > limit("contextStringLength")) return found(`has a property name longer than ${limit("contextStringLength")} characters`)
    encodedAtMost += key === "toJSON" ? Infinity : 6 * key.length + 4
    const p = valueProblem((value as Record<string, unknown>)[key], depth + 1)
    if (p !== undefined) return within(key, p)
  }
  return undefined
}

/**
 * The first problem of a decoded context `{ key, attributes? }` with the limits, with its path
 * under `path` (`"context"` gives `context.attributes.tags`, `""` gives `attributes.tags`);
 * `undefined` when it is within every limit.
 * The shape itself (a string key, an object of attributes) is the schema's business.
 */
export const contextLimitProblem = (context: unknown, path: string): Problem | undefined => {
  if (!isRecord(context)) return undefined
  const key = context.key
  if (typeof key === "string" && key.length > limit("contextStringLength")) {
    return { path: join(path, "key"), message: atMostLength("contextStringLength") }
  }
  // The bound of `{"key":...,"attributes":{...}}`; another property, or attributes that are not
  // an object, and the context is encoded to be measured.
  encodedAtMost = Object.getPrototypeOf(context) === PLAIN ? 2 : Infinity
  for (const name in context) {
    if (name === "key") encodedAtMost += 7 + (typeof key === "string" ? 6 * key.length + 2 : key === null ? 4 : scalarBound(key))
    else if (name === "attributes") encodedAtMost += 14
    else encodedAtMost = Infinity
  }
  const attributes = context.attributes
  if (isRecord(attributes)) {
    const names = Object.keys(attributes)
    if (names.length > limit("contextAttributes")) return { path: join(path, "attributes"), message: atMost("contextAttributes") }
    const proto: unknown = Object.getPrototypeOf(attributes)
    encodedAtMost += proto === PLAIN || proto === null ? 2 : Infinity
    for (const name of names) {
      if (name.length > limit("contextStringLength")) {
        return { path: join(path, "attributes"), message: `has an attribute name longer than ${limit("contextStringLength")} characters` }
      }
      encodedAtMost += name === "toJSON" ? Infinity : 6 * name.length + 4
      const p = valueProblem(attributes[name], 0)
      if (p !== undefined) return { path: pathOf(join(join(path, "attributes"), name), p.steps), message: p.message }
    }
  } else if (attributes !== undefined) encodedAtMost = Infinity
  if (encodedAtMost <= limit("contextSize")) return undefined
  // Every part is bounded now, so encoding it is cheap and cannot overflow the stack.
  const size = JSON.stringify(context).length
  if (size <= limit("contextSize")) return undefined
  const max = limit("contextSize").toLocaleString("en-US")
  return { path, message: `must encode to at most ${max} characters of JSON (this one has ${size.toLocaleString("en-US")})` }
}
