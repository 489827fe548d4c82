/**
 * The evaluation context's limits (Limits.ts, scope "context"), checked before any evaluation.
 *
 * A context comes from anyone holding a client key, which lives in browsers and apps and must be
 * treated as public, so its size is what bounds the work of an evaluation request (see
 * docs/operations.md, "What a request can cost"). The check is one walk over the value that stops
 * at the first limit broken: it reads at most the limits' worth of the context (its recursion is
 * at most `contextDepth` deep), so a hostile context costs no more to refuse than to accept.
 */
import type { Problem } from "../Errors.js"
import { atMost, atMostLength, limit } from "../Limits.js"

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** `context` + `key` -> `context.key`; at the top level (`""`), just `key`. */
const join = (path: string, name: string): string => (path === "" ? name : `${path}.${name}`)

/** The first limit that `value` (an attribute value at `path`, `depth` levels deep) breaks, if any. */
const valueProblem = (value: unknown, path: string, depth: number): Problem | undefined => {
  if (typeof value === "string") {
    return value.length > limit("contextStringLength") ? { path, message: atMostLength("contextStringLength") } : undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  if (depth >= limit("contextDepth")) return { path, message: `must nest arrays and objects at most ${limit("contextDepth")} levels deep` }
  if (Array.isArray(value)) {
    if (value.length > limit("contextArrayLength")) return { path, message: atMost("contextArrayLength") }
    for (let i = 0; i < value.length; i++) {
      const p = valueProblem(value[i], `${path}[${i}]`, depth + 1)
      if (p !== undefined) return p
    }
    return undefined
  }
  const keys = Object.keys(value)
  if (keys.length > limit("contextArrayLength")) return { path, message: `must have at most ${limit("contextArrayLength")} entries` }
  for (const key of keys) {
    if (key.length > limit("contextStringLength")) return { path, message: `has a property name longer than ${limit("contextStringLength")} characters` }
    const p = valueProblem((value as Record<string, unknown>)[key], join(path, key), depth + 1)
    if (p !== undefined) return p
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
  const attributes = context.attributes
  if (isRecord(attributes)) {
    const names = Object.keys(attributes)
    const at = join(path, "attributes")
    if (names.length > limit("contextAttributes")) return { path: at, message: atMost("contextAttributes") }
    for (const name of names) {
      if (name.length > limit("contextStringLength")) {
        return { path: at, message: `has an attribute name longer than ${limit("contextStringLength")} characters` }
      }
      const p = valueProblem(attributes[name], join(at, name), 0)
      if (p !== undefined) return p
    }
  }
  // Every part is bounded now, so encoding it is cheap and cannot overflow the stack.
  const size = JSON.stringify(context).length
  if (size <= limit("contextSize")) return undefined
  const max = limit("contextSize").toLocaleString("en-US")
  return { path, message: `must encode to at most ${max} characters of JSON (this one has ${size.toLocaleString("en-US")})` }
}
