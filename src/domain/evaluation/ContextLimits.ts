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

/** The first limit that `value` (an attribute value `depth` levels deep) breaks, if any. */
const valueProblem = (value: unknown, depth: number): Found | undefined => {
  if (typeof value === "string") {
    return value.length > limit("contextStringLength") ? found(atMostLength("contextStringLength")) : undefined
  }
  if (typeof value !== "object" || value === null) return undefined
  if (depth >= limit("contextDepth")) return found(`must nest arrays and objects at most ${limit("contextDepth")} levels deep`)
  if (Array.isArray(value)) {
    if (value.length > limit("contextArrayLength")) return found(atMost("contextArrayLength"))
    for (let i = 0; i < value.length; i++) {
      const p = valueProblem(value[i], depth + 1)
      if (p !== undefined) return within(i, p)
    }
    return undefined
  }
  const keys = Object.keys(value)
  if (keys.length > limit("contextArrayLength")) return found(`must have at most ${limit("contextArrayLength")} entries`)
  for (const key of keys) {
    if (key.length > limit("contextStringLength")) return found(`has a property name longer than ${limit("contextStringLength")} characters`)
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
  const attributes = context.attributes
  if (isRecord(attributes)) {
    const names = Object.keys(attributes)
    if (names.length > limit("contextAttributes")) return { path: join(path, "attributes"), message: atMost("contextAttributes") }
    for (const name of names) {
      if (name.length > limit("contextStringLength")) {
        return { path: join(path, "attributes"), message: `has an attribute name longer than ${limit("contextStringLength")} characters` }
      }
      const p = valueProblem(attributes[name], 0)
      if (p !== undefined) return { path: pathOf(join(join(path, "attributes"), name), p.steps), message: p.message }
    }
  }
  // Every part is bounded now, so encoding it is cheap and cannot overflow the stack.
  const size = JSON.stringify(context).length
  if (size <= limit("contextSize")) return undefined
  const max = limit("contextSize").toLocaleString("en-US")
  return { path, message: `must encode to at most ${max} characters of JSON (this one has ${size.toLocaleString("en-US")})` }
}
