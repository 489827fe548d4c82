/**
 * Fast paths for the evaluation lane's request decoding. Decoding with Effect Schema (all errors,
 * excess properties checked) costs tens of microseconds per request; the common, valid request
 * can be recognised in about one. Each function here accepts ONLY inputs that the corresponding
 * schema of shared/EvaluationRequests.ts accepts, and returns exactly what the schema would
 * decode them to; anything else returns `undefined` and the caller decodes with the schema
 * (which produces the 400 with every problem). test/http/FastDecode.test.ts checks the agreement on arbitrary inputs.
 */
import { isStorableText } from "../../../src/domain/definitions/Text.js"
import { type ConfigQuery, type EvaluateRequest, FLAG_EVAL_PARAMETERS, type FlagEvalQuery } from "../shared/EvaluationRequests.js"

/** A string the schema's `Text` accepts (no U+0000, no lone surrogate). */
const isText = (u: unknown): u is string => typeof u === "string" && isStorableText(u)

const isPlainRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const CONTEXT_KEYS = new Set(["key", "attributes"])
const EVALUATE_KEYS = new Set(["environment", "context", "projectId"])

const onlyKeys = (record: Record<string, unknown>, allowed: ReadonlySet<string>): boolean => {
  for (const key in record) if (!allowed.has(key)) return false
  // JSON.parse never makes symbol keys or non-enumerable own properties; `for in` also walks the
  // prototype chain, which for JSON objects is Object.prototype (no enumerable keys).
  return true
}

/** The body of POST /v1/evaluate, when it is plainly valid. */
export const evaluateRequest = (u: unknown): EvaluateRequest | undefined => {
  if (!isPlainRecord(u) || !onlyKeys(u, EVALUATE_KEYS)) return undefined
  const { context, environment, projectId } = u
  if (environment !== undefined && !isText(environment)) return undefined
  if ("environment" in u && environment === undefined) return undefined
  if (projectId !== undefined && !isText(projectId)) return undefined
  if ("projectId" in u && projectId === undefined) return undefined
  if (!isPlainRecord(context) || !onlyKeys(context, CONTEXT_KEYS)) return undefined
  const { attributes, key } = context
  if (typeof key !== "string" || key.length === 0) return undefined
  if ("attributes" in context && !isPlainRecord(attributes)) return undefined
  return u as EvaluateRequest
}

/** A query parameter's value: an array when the parameter is repeated. */
export type QueryValue = string | ReadonlyArray<string>

/** The query of GET /v1/flags/{flagKey}/eval, when it is plainly valid (an unknown parameter is not: the schema refuses it). */
export const flagEvalQuery = (query: Record<string, QueryValue>): FlagEvalQuery | undefined => {
  if (!onlyKeys(query, FLAG_EVAL_PARAMETERS)) return undefined
  const { attributes, environment, key, projectId } = query
  if (!(environment === undefined || isText(environment)) || typeof key !== "string" || key.length === 0) return undefined
  if (!(attributes === undefined || typeof attributes === "string") || !(projectId === undefined || isText(projectId))) return undefined
  const out: { environment?: string; key: string; attributes?: Record<string, unknown>; projectId?: string } = { key }
  if (environment !== undefined) out.environment = environment
  if (attributes !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(attributes)
    } catch {
      return undefined
    }
    // An own `__proto__` key (JSON.parse makes one) is something the schema's Record rebuilds differently: leave it to the schema.
    if (!isPlainRecord(parsed) || Object.prototype.hasOwnProperty.call(parsed, "__proto__")) return undefined
    out.attributes = parsed
  }
  if (projectId !== undefined) out.projectId = projectId
  return out
}

/** The query of GET /v1/config, when it is plainly valid. */
export const configQuery = (query: Record<string, QueryValue>): ConfigQuery | undefined => {
  const { environment, projectId } = query
  if (!(environment === undefined || isText(environment)) || !(projectId === undefined || isText(projectId))) return undefined
  const out: { environment?: string; projectId?: string } = {}
  if (environment !== undefined) out.environment = environment
  if (projectId !== undefined) out.projectId = projectId
  return out
}

/** A character outside printable ASCII: the query is then left to URLSearchParams (its encoding rules, replacement characters). */
const NOT_PRINTABLE_ASCII = /[^\x21-\x7e]/

/** One name or value, `+` as a space and percent-decoded; undefined when it is not well-formed UTF-8 percent-encoding. */
const decodePart = (part: string): string | undefined => {
  const spaced = part.indexOf("+") === -1 ? part : part.replace(/\+/g, " ")
  if (spaced.indexOf("%") === -1) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return undefined
  }
}

const add = (out: Record<string, QueryValue>, k: string, v: string): void => {
  const seen = out[k]
  out[k] = seen === undefined ? v : typeof seen === "string" ? [seen, v] : [...seen, v]
}

/** The query through URLSearchParams (the reference `queryRecord` agrees with). */
export const queryRecordOfSearchParams = (query: string): Record<string, QueryValue> => {
  // No prototype: a parameter named `toString` or `__proto__` is just a parameter.
  const out: Record<string, QueryValue> = Object.create(null) as Record<string, QueryValue>
  for (const [k, v] of new URLSearchParams(query)) add(out, k, v)
  return out
}

/**
 * The query as HttpApi sees it: a repeated parameter becomes an array of its values, so the
 * schema refuses `?environment=a&environment=b` here exactly as it does on the HttpApi routes
 * (rather than one of the values winning silently). Split and decoded by hand (URLSearchParams
 * costs a few microseconds a request); a query with characters outside printable ASCII or with
 * percent-encoding that is not well-formed UTF-8 goes to URLSearchParams, whose result this is
 * always (test/http/FastDecode.test.ts checks it on arbitrary queries).
 */
export const queryRecord = (query: string): Record<string, QueryValue> => {
  // No prototype: a parameter named `toString` or `__proto__` is just a parameter.
  const out: Record<string, QueryValue> = Object.create(null) as Record<string, QueryValue>
  if (query === "") return out
  // URLSearchParams drops one leading `?`.
  if (query.charCodeAt(0) === 63 || NOT_PRINTABLE_ASCII.test(query)) return queryRecordOfSearchParams(query)
  let start = 0
  while (start <= query.length) {
    let end = query.indexOf("&", start)
    if (end === -1) end = query.length
    if (end > start) {
      const eq = query.indexOf("=", start)
      const hasValue = eq !== -1 && eq < end
      const name = decodePart(query.slice(start, hasValue ? eq : end))
      const value = hasValue ? decodePart(query.slice(eq + 1, end)) : ""
      if (name === undefined || value === undefined) return queryRecordOfSearchParams(query)
      add(out, name, value)
    }
    start = end + 1
  }
  return out
}
