/**
 * The body of an OFREP evaluation request, `{ "context": { "targetingKey": "...", ...attributes } }`,
 * as Flagport's context: `targetingKey` is `context.key`, every other property an attribute.
 *
 * A context without `targetingKey` (or with an empty one) is evaluated with the key absent, never
 * refused: conditions on `key` and rollouts by `key` then do not match. An absent body or
 * `context` is an empty context. Refused: a body that is not a JSON object (PARSE_ERROR); a
 * `context` that is not an object, a `targetingKey` that is not a string, or a context past the
 * limits every evaluation has (INVALID_CONTEXT). Other top-level properties are ignored, as
 * OFREP leaves room for them.
 */
import { contextLimitProblem } from "../../../src/domain/evaluation/ContextLimits.js"
import type { LocalContext } from "../../../src/domain/evaluation/Evaluator.js"
import { MAX_JSON_DEPTH, parseJsonBody } from "../shared/Body.js"
import { invalidContext, parseError } from "./OfrepErrors.js"

export interface OfrepContext {
  /** What `Evaluate` takes. */
  readonly context: LocalContext
  /** The OFREP context as received (the bulk ETag hashes its canonical form). */
  readonly raw: Readonly<Record<string, unknown>>
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const EMPTY: OfrepContext = { context: {}, raw: {} }

/** `{ targetingKey, ...attributes }` to `{ key?, attributes }`, by a loop (a rest spread costs more than the evaluation). */
const toLocalContext = (raw: Readonly<Record<string, unknown>>): LocalContext => {
  const attributes: Record<string, unknown> = {}
  let any = false
  for (const name in raw) {
    if (name === "targetingKey") continue
    any = true
    // An own `__proto__` (JSON.parse makes one) stays an ordinary attribute.
    if (name === "__proto__") Object.defineProperty(attributes, name, { value: raw[name], enumerable: true, writable: true, configurable: true })
    else attributes[name] = raw[name]
  }
  const key = raw.targetingKey
  if (typeof key === "string" && key !== "") return any ? { key, attributes } : { key }
  return any ? { attributes } : {}
}

/** Decodes the raw body (already read, at most 1 MiB) into the context to evaluate; throws the OFREP 400. */
export const decodeOfrepBody = (bytes: Uint8Array): OfrepContext => {
  const parsed = parseJsonBody(bytes)
  if (parsed === "empty") return EMPTY
  if (parsed === "tooDeep") throw parseError(`The body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`)
  if (parsed === "malformed") throw parseError("The body is not valid JSON")
  const body = parsed.json
  if (!isRecord(body)) throw parseError("The body must be a JSON object, like {\"context\": {...}}")
  const raw = body.context
  if (raw === undefined) return EMPTY
  if (!isRecord(raw)) throw invalidContext("context must be an object")
  const key = raw.targetingKey
  if (key !== undefined && typeof key !== "string") throw invalidContext("context.targetingKey must be a string")
  const context = toLocalContext(raw)
  const problem = contextLimitProblem(context, "context")
  if (problem !== undefined) throw invalidContext(`${problem.path}: ${problem.message}`)
  return { context, raw }
}
