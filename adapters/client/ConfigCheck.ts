/**
 * Checks a `GET /v1/config` body before it may replace the client's configuration: the same
 * rules as the `ConfigSnapshot` schema (property-tested against it in
 * test/client/ConfigCheck.test.ts), written by hand because Effect's Schema would triple the
 * client's bundle (docs/internals/decisions.md). A flag's `version` is optional, so configurations from
 * servers before and after it was added are both accepted. Unknown properties are ignored, as
 * the schema ignores them.
 */
import { type ConfigSnapshot, isGroupShaped, isOperatorName } from "./Core.js"

export type CheckResult = { readonly ok: true; readonly snapshot: ConfigSnapshot } | { readonly ok: false; readonly problem: string }

/** A problem found at a path; thrown inside this module only, caught by `checkConfig`. */
class Problem {
  constructor(readonly message: string) {}
}

/** Ids.KEY_PATTERN, repeated because Ids.ts builds schemas on load (the test pins the two together). */
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
const FLAG_TYPES = new Set(["boolean", "string", "number", "json"])

type Fields = { readonly [name: string]: unknown }

const object = (value: unknown, path: string): Fields => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Problem(`${path} must be an object`)
  return value as Fields
}

const array = (value: unknown, path: string): ReadonlyArray<unknown> => {
  if (!Array.isArray(value)) throw new Problem(`${path} must be an array`)
  return value
}

const string = (value: unknown, path: string): void => {
  if (typeof value !== "string") throw new Problem(`${path} must be a string`)
}

const optional = (value: unknown, path: string, check: (value: unknown, path: string) => void): void => {
  if (value !== undefined) check(value, path)
}

const boolean = (value: unknown, path: string): void => {
  if (typeof value !== "boolean") throw new Problem(`${path} must be a boolean`)
}

const number = (value: unknown, path: string): void => {
  if (typeof value !== "number") throw new Problem(`${path} must be a number`)
}

const condition = (value: unknown, path: string): void => {
  const c = object(value, path)
  optional(c.attribute, `${path}.attribute`, string)
  if (!isOperatorName(c.operator)) throw new Problem(`${path}.operator is not a known operator`)
  array(c.values, `${path}.values`)
  optional(c.negate, `${path}.negate`, boolean)
}

/** A group: only its shape (lists of conditions), as the schema decodes it; what its limits are is the server's to check. */
const group = (value: unknown, path: string): void => {
  const g = object(value, path)
  array(g.anyOf, `${path}.anyOf`).forEach((list, j) =>
    array(list, `${path}.anyOf[${j}]`).forEach((c, k) => {
      if (isGroupShaped(c)) throw new Problem(`${path}.anyOf[${j}][${k}] is a group inside a group`)
      condition(c, `${path}.anyOf[${j}][${k}]`)
    })
  )
}

const conditions = (value: unknown, path: string): void => {
  array(value, path).forEach((c, i) => (isGroupShaped(c) ? group(c, `${path}[${i}]`) : condition(c, `${path}[${i}]`)))
}

const rollout = (value: unknown, path: string): void => {
  const r = object(value, path)
  optional(r.bucketBy, `${path}.bucketBy`, string)
  optional(r.seed, `${path}.seed`, string)
  array(r.variations, `${path}.variations`).forEach((s, i) => {
    const slice = object(s, `${path}.variations[${i}]`)
    string(slice.variationKey, `${path}.variations[${i}].variationKey`)
    number(slice.weight, `${path}.variations[${i}].weight`)
  })
}

const rule = (value: unknown, path: string): void => {
  const r = object(value, path)
  string(r.id, `${path}.id`)
  optional(r.name, `${path}.name`, string)
  conditions(r.conditions, `${path}.conditions`)
  optional(r.variationKey, `${path}.variationKey`, string)
  optional(r.rollout, `${path}.rollout`, rollout)
}

const variation = (value: unknown, path: string): void => {
  const v = object(value, path)
  if (typeof v.key !== "string" || !KEY_PATTERN.test(v.key)) throw new Problem(`${path}.key must be a key (${KEY_PATTERN.source})`)
  optional(v.name, `${path}.name`, string)
}

const prerequisite = (value: unknown, path: string): void => {
  const p = object(value, path)
  string(p.flagKey, `${path}.flagKey`)
  string(p.variationKey, `${path}.variationKey`)
}

const flag = (value: unknown, path: string): void => {
  const f = object(value, path)
  string(f.key, `${path}.key`)
  if (typeof f.type !== "string" || !FLAG_TYPES.has(f.type)) throw new Problem(`${path}.type must be boolean, string, number or json`)
  boolean(f.enabled, `${path}.enabled`)
  array(f.variations, `${path}.variations`).forEach((v, i) => variation(v, `${path}.variations[${i}]`))
  string(f.defaultVariationKey, `${path}.defaultVariationKey`)
  string(f.offVariationKey, `${path}.offVariationKey`)
  array(f.rules, `${path}.rules`).forEach((r, i) => rule(r, `${path}.rules[${i}]`))
  optional(f.version, `${path}.version`, number)
  // Optional: servers before prerequisites existed send none.
  optional(f.prerequisites, `${path}.prerequisites`, (list, at) => array(list, at).forEach((p, i) => prerequisite(p, `${at}[${i}]`)))
}

const keyList = (value: unknown, path: string): void => {
  const list = object(value, path)
  number(list.version, `${path}.version`)
  number(list.count, `${path}.count`)
  optional(list.salt, `${path}.salt`, string)
}

/** Accepts a configuration exactly when the `ConfigSnapshot` schema (plus an optional flag `version`) would. */
export const checkConfig = (body: unknown): CheckResult => {
  try {
    const root = object(body, "the configuration")
    string(root.environment, "environment")
    array(root.flags, "flags").forEach((f, i) => flag(f, `flags[${i}]`))
    array(root.segments, "segments").forEach((s, i) => {
      const segment = object(s, `segments[${i}]`)
      string(segment.key, `segments[${i}].key`)
      conditions(segment.conditions, `segments[${i}].conditions`)
      // Optional: a segment names a key list (its version and size, never its keys) only when it has one.
      for (const list of ["included", "excluded"] as const) optional(segment[list], `segments[${i}].${list}`, keyList)
      optional(segment.keyAttribute, `segments[${i}].keyAttribute`, string)
    })
    // Optional: servers before experiments, and any environment without a running one, send none.
    optional(root.experiments, "experiments", (list, at) =>
      array(list, at).forEach((e, i) => {
        const experiment = object(e, `${at}[${i}]`)
        string(experiment.flagKey, `${at}[${i}].flagKey`)
        string(experiment.ruleId, `${at}[${i}].ruleId`)
      }))
    return { ok: true, snapshot: body as ConfigSnapshot }
  } catch (e) {
    if (e instanceof Problem) return { ok: false, problem: e.message }
    // Hostile input (a throwing getter): refused, never thrown.
    return { ok: false, problem: `the configuration cannot be read: ${String(e)}` }
  }
}
