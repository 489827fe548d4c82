/**
 * Serialization of `POST /v1/evaluate` results. The evaluator returns precomputed, frozen result
 * objects (one per flag outcome), so each one's JSON is computed once and reused: the body is a
 * concatenation of cached fragments, byte-for-byte what `JSON.stringify` would write, in a fraction
 * of the time (about 25 µs instead of 140 µs for 50 flags here). Objects that are not frozen are
 * serialized every time (a fresh object could be mutated later).
 */
import type { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"

const fragments = new WeakMap<object, string>()
/** `"flagKey":{...}` of a frozen result, as a member of the `flags` object (one lookup per flag). */
const members = new WeakMap<object, string>()

const fragmentOf = (result: EvaluationResult): string => {
  let json = fragments.get(result)
  if (json === undefined) {
    json = JSON.stringify(result)
    if (Object.isFrozen(result)) fragments.set(result, json)
  }
  return json
}

/** `"key":<result>`; cached under the result, which always answers for its own flag key. */
const memberOf = (key: string, result: EvaluationResult): string => {
  if (key !== result.flagKey) return `${JSON.stringify(key)}:${fragmentOf(result)}`
  let json = members.get(result)
  if (json === undefined) {
    json = `${JSON.stringify(key)}:${fragmentOf(result)}`
    if (Object.isFrozen(result)) members.set(result, json)
  }
  return json
}

/** `JSON.stringify(results)`, from cached fragments. */
export const resultsJson = (results: Readonly<Record<string, EvaluationResult>>): string => {
  let out = "{"
  let first = true
  for (const key in results) {
    const result = results[key]
    if (result === undefined) continue
    if (first) first = false
    else out += ","
    out += memberOf(key, result)
  }
  return `${out}}`
}

/** `JSON.stringify(result)`, from the cache when the result is frozen. */
export const resultJson = (result: EvaluationResult): string => fragmentOf(result)
