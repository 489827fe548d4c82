/**
 * The client's hand-written configuration check accepts exactly what the `ConfigSnapshot` schema
 * accepts (with a flag `version` optional, so configurations from servers before and after it
 * was added both pass), on valid snapshots and on every kind of damage to them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Arbitrary, Either, FastCheck as fc, Schema } from "effect"
import { checkConfig, KEY_PATTERN } from "../../adapters/client/ConfigCheck.js"
import { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import { KEY_PATTERN as DOMAIN_KEY_PATTERN } from "../../src/domain/definitions/Ids.js"

const WithVersion = Schema.Struct({
  ...ConfigSnapshot.fields,
  flags: Schema.Array(Schema.Struct({ ...SnapshotFlag.fields, version: Schema.optional(Schema.Number) }))
})
const schemaAccepts = (u: unknown) => Either.isRight(Schema.decodeUnknownEither(WithVersion)(u))

/** Every path to a value inside `value` (objects and arrays walked). */
const paths = (value: unknown, prefix: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  const out: Array<ReadonlyArray<string | number>> = [prefix]
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])))
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]))
  return out
}

/** `value` with the node at `path` replaced (or, for `undefined`, removed). */
const replaceAt = (value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown => {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) {
    const copy = [...value]
    if (replacement === undefined && rest.length === 0) copy.splice(head as number, 1)
    else copy[head as number] = replaceAt(value[head as number], rest, replacement)
    return copy
  }
  const copy = { ...(value as Record<string, unknown>) }
  if (replacement === undefined && rest.length === 0) delete copy[head as string]
  else copy[head as string] = replaceAt(copy[head as string], rest, replacement)
  return copy
}

const validSnapshot = Arbitrary.make(WithVersion)
const damage = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant("text"),
  fc.constant(""),
  fc.constant("in"),
  fc.constant("boolean"),
  fc.constant("bad key!"),
  fc.integer(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.anything({ maxDepth: 2 })
)
const damaged = validSnapshot.chain((snapshot) =>
  fc.tuple(fc.constantFrom(...paths(snapshot)), damage).map(([path, replacement]) => replaceAt(snapshot, path, replacement))
)

describe("checkConfig", () => {
  // The schema's arbitraries build megabyte snapshots at the default size; small ones find the same disagreements.
  const previous = fc.readConfigureGlobal()
  beforeAll(() => fc.configureGlobal({ ...previous, baseSize: "xsmall" }))
  afterAll(() => fc.configureGlobal(previous))

  it("uses the domain's key pattern", () => {
    expect(KEY_PATTERN.source).toBe(DOMAIN_KEY_PATTERN.source)
  })

  it.prop("accepts every snapshot the schema produces", [validSnapshot], ([snapshot]) => {
    expect(checkConfig(snapshot)).toEqual({ ok: true, snapshot })
  })

  it.prop("agrees with the schema on damaged snapshots", [damaged], ([candidate]) => {
    const verdict = checkConfig(candidate)
    expect(verdict.ok).toBe(schemaAccepts(candidate))
    if (!verdict.ok) expect(verdict.problem).toMatch(/\S/)
  }, { fastCheck: { numRuns: 1_000 } })

  it("refuses what is not a configuration, naming the place", () => {
    expect(checkConfig("<html>")).toEqual({ ok: false, problem: "the configuration must be an object" })
    expect(checkConfig({ environment: "p", flags: [{ key: "f" }], segments: [] })).toEqual({ ok: false, problem: "flags[0].type must be boolean, string, number or json" })
    expect(checkConfig({ environment: "p", flags: [], segments: [], extra: 1 }).ok).toBe(true)
    const hostile = new Proxy({}, { get: () => { throw new Error("boom") } })
    expect(checkConfig(hostile)).toMatchObject({ ok: false })
  })
})
