/**
 * Local and remote evaluation agree: for random flags (created through the management API of a
 * real server) and random contexts, the client, `POST /v1/evaluate` and OFREP's bulk evaluation
 * (`POST /ofrep/v1/evaluate/flags`) give the same value and variation, OR groups (`anyOf`) and a
 * segment holding one among the conditions. Contexts carry `Date` values, which the client converts as JSON carries them.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { type Client, createClient } from "../../adapters/client/index.js"
import { request } from "../http/fixtures.js"
import { type Flagport, startFlagport } from "./RealServer.js"

let server: Flagport
let flags: Client
let run = 0

beforeAll(async () => {
  server = await startFlagport()
  await server.createSegment("eu-or-pro", [{ anyOf: [[{ attribute: "country", operator: "in", values: ["DE", "FR"] }], [{ attribute: "plan", operator: "in", values: ["pro"] }]] }])
  flags = await createClient({ url: server.url, key: server.serverKey, environment: "production", stream: false, pollIntervalMs: 60_000 })
}, 120_000)
afterAll(async () => {
  await flags?.close()
  await server?.close()
})

const VALUES = {
  boolean: [true, false, true],
  string: ["a", "b", ""],
  number: [0, 1.5, Number.MAX_SAFE_INTEGER],
  json: [{ a: 1 }, [1, "x"], null]
} as const
type Type = keyof typeof VALUES

const condition = fc.oneof(
  fc.record({ attribute: fc.constant("country"), operator: fc.constantFrom("in", "notIn"), values: fc.subarray(["DE", "US", "FR"], { minLength: 1 }), negate: fc.boolean() }),
  fc.record({ attribute: fc.constant("plan"), operator: fc.constant("in"), values: fc.subarray(["free", "pro"], { minLength: 1 }) }),
  fc.record({ attribute: fc.constant("age"), operator: fc.constantFrom("lt", "gte"), values: fc.integer({ min: 0, max: 100 }).map((n) => [n]) }),
  fc.record({ attribute: fc.constant("email"), operator: fc.constantFrom("endsWith", "contains", "matches"), values: fc.constantFrom(["@example.com"], ["b@"], ["^a"]) }),
  fc.record({ attribute: fc.constant("signedUp"), operator: fc.constantFrom("before", "after"), values: fc.constantFrom(["2026-01-01T00:00:00Z"], ["2025-06-01T00:00:00Z"]) }),
  fc.record({ attribute: fc.constantFrom("key", "beta", "missing"), operator: fc.constant("exists"), values: fc.constant([]) }),
  fc.record({ attribute: fc.constant("key"), operator: fc.constant("in"), values: fc.subarray(["u1", "u2", "u3"], { minLength: 1 }) })
)

/** A group (`anyOf`) of the conditions above, or membership of a segment that holds one. */
const group = fc.oneof(
  fc.array(fc.array(condition, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  fc.record({ operator: fc.constantFrom("inSegment", "notInSegment"), values: fc.constant(["eu-or-pro"]), negate: fc.boolean() })
)

const rule = (variationKeys: ReadonlyArray<string>) =>
  fc.record({
    conditions: fc.array(fc.oneof({ weight: 2, arbitrary: condition }, { weight: 1, arbitrary: group }), { maxLength: 2 }),
    serve: fc.oneof(
      fc.constantFrom(...variationKeys).map((variationKey) => ({ variationKey })),
      fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom("key", "email")).map(([weight, bucketBy]) => ({
        rollout: { bucketBy, variations: [{ variationKey: variationKeys[0]!, weight }, { variationKey: variationKeys[1]!, weight: 100_000 - weight }] }
      }))
    )
  }).map(({ conditions, serve }) => ({ conditions, ...serve }))

const flag = fc.constantFrom<Type>("boolean", "string", "number", "json").chain((type) => {
  const variations = VALUES[type].map((value, i) => ({ key: `v${i}`, value }))
  const keys = variations.map((v) => v.key)
  return fc.record({
    type: fc.constant(type),
    variations: fc.constant(variations),
    targeting: fc.record({
      enabled: fc.constantFrom(true, true, true, false),
      defaultVariationKey: fc.constantFrom(...keys),
      offVariationKey: fc.constantFrom(...keys),
      rules: fc.array(rule(keys), { maxLength: 3 })
    })
  })
})

const context = fc.record(
  {
    key: fc.constantFrom("u1", "u2", "u3", "someone-else"),
    attributes: fc.record(
      {
        country: fc.constantFrom("DE", "US", "FR"),
        plan: fc.constantFrom("free", "pro"),
        age: fc.integer({ min: 0, max: 100 }),
        email: fc.constantFrom("a@example.com", "b@test.org"),
        beta: fc.boolean(),
        signedUp: fc.constantFrom(new Date("2025-01-01T00:00:00Z"), new Date("2026-03-01T12:00:00Z"), "2025-09-09T00:00:00Z")
      },
      { requiredKeys: [] }
    )
  },
  { requiredKeys: ["key"] }
)

describe("the client, POST /v1/evaluate and OFREP", () => {
  it("give the same value and variation for random flags and contexts", { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(flag, { minLength: 1, maxLength: 3 }), fc.array(context, { minLength: 1, maxLength: 4 }), async (generated, contexts) => {
      run++
      const keys = generated.map((_, i) => `agree-${run}-${i}`)
      for (const [i, f] of generated.entries()) {
        await server.createFlag(keys[i]!, f.type, f.variations)
        await server.target(keys[i]!, f.targeting)
      }
      expect(await flags.refresh()).toBe(true)
      for (const ctx of contexts) {
        const remote = await request(server.url, "POST", "/v1/evaluate", { key: server.serverKey, body: { environment: "production", context: ctx } })
        expect(remote.status).toBe(200)
        const remoteFlags = (remote.body as { flags: Record<string, { value: unknown; variationKey: string | null }> }).flags
        const ofrep = await request(server.url, "POST", "/ofrep/v1/evaluate/flags", {
          key: server.serverKey,
          headers: { "flagport-environment": "production" },
          body: { context: { targetingKey: ctx.key, ...ctx.attributes } }
        })
        expect(ofrep.status, ofrep.text).toBe(200)
        // OFREP answers an evaluation that failed with an error entry (no value, no variant).
        const ofrepFlags = new Map(
          (ofrep.body as { flags: Array<{ key: string; value?: unknown; variant?: string; errorCode?: string }> }).flags.map((f) => [
            f.key,
            f.errorCode === undefined ? { value: f.value, variationKey: f.variant ?? null } : { value: "(error)", variationKey: null }
          ])
        )
        const local = flags.all(ctx)
        for (const key of keys) {
          expect({ value: local[key]!.value, variationKey: local[key]!.variationKey }).toEqual({ value: remoteFlags[key]!.value, variationKey: remoteFlags[key]!.variationKey })
          if (remoteFlags[key]!.variationKey !== null) expect(ofrepFlags.get(key)).toEqual({ value: remoteFlags[key]!.value, variationKey: remoteFlags[key]!.variationKey })
          else expect(ofrepFlags.get(key)?.variationKey).toBeNull()
          const type = generated[keys.indexOf(key)]!.type
          const detail = flags.detail(key, ctx, "fallback" as unknown, type)
          if (detail.reason.kind !== "ERROR") expect(detail.value).toEqual(remoteFlags[key]!.value)
        }
      }
      }),
      { numRuns: 60 }
    )
  })
})
