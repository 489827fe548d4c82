/**
 * The OpenFeature provider through the real `@openfeature/server-sdk`, against a real Flagport
 * (SQLite file): every flag type, every reason, every error code that can arise, hooks seeing
 * the details, events, the edge cases (falsy values, 2^53-1, a float 10.0, the type-mismatch
 * matrix, unknown and disabled flags, a missing targeting key, a Date in the context),
 * initialisation against an unreachable server then recovery, and shutdown.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import { type EvaluationDetails, type FlagValue, type Hook, OpenFeature, ProviderEvents, ProviderStatus } from "@openfeature/server-sdk"
import { type ConfigSnapshot, createClient } from "../../adapters/client/index.js"
import { FlagportProvider } from "../../adapters/openfeature/index.js"
import { freePort } from "../cli/Process.js"
import { FakeFlagport } from "../client/FakeFlagport.js"
import { type Flagport, startFlagport } from "../client/RealServer.js"

let server: Flagport
let domainCount = 0
const newDomain = () => `flagport-test-${++domainCount}`

const FLAG_TYPES = ["boolean", "string", "number", "json"] as const
const typedFlags = { boolean: "bool-flag", string: "str-flag", number: "num-flag", json: "json-flag" } as const

beforeAll(async () => {
  server = await startFlagport()
  const simple = async (key: string, type: string, variations: Array<{ key: string; value: unknown }>, serve: string, extra: Record<string, unknown> = {}) => {
    await server.createFlag(key, type, variations)
    await server.target(key, { enabled: true, defaultVariationKey: serve, offVariationKey: variations[0]!.key, rules: [], ...extra })
  }
  await simple("bool-flag", "boolean", [{ key: "on", value: true }, { key: "off", value: false }], "on")
  await simple("falsy-bool", "boolean", [{ key: "on", value: true }, { key: "off", value: false }], "off")
  await simple("str-flag", "string", [{ key: "plain", value: "plain" }, { key: "de", value: "de" }], "plain", {
    rules: [{ id: "germany", conditions: [{ attribute: "country", operator: "in", values: ["DE"] }], variationKey: "de" }]
  })
  await simple("empty-str", "string", [{ key: "full", value: "full" }, { key: "empty", value: "" }], "empty")
  await simple("num-flag", "number", [{ key: "one", value: 1.5 }, { key: "zero", value: 0 }], "zero")
  await simple("max-int", "number", [{ key: "zero", value: 0 }, { key: "max", value: Number.MAX_SAFE_INTEGER }], "max")
  await simple("ten", "number", [{ key: "zero", value: 0 }, { key: "ten", value: 10.0 }], "ten")
  await simple("json-flag", "json", [{ key: "empty", value: {} }, { key: "full", value: { theme: "dark", sizes: [1, 2] } }], "full")
  await simple("split-flag", "string", [{ key: "a", value: "a" }, { key: "b", value: "b" }], "a", {
    rules: [{ id: "everyone", conditions: [], rollout: { variations: [{ variationKey: "b", weight: 100_000 }] } }]
  })
  await simple("vip-flag", "string", [{ key: "no", value: "no" }, { key: "yes", value: "yes" }], "no", {
    rules: [
      { id: "vip", conditions: [{ attribute: "key", operator: "in", values: ["vip-user"] }], variationKey: "yes" },
      { id: "late", conditions: [{ attribute: "signedUp", operator: "after", values: ["2026-01-01T00:00:00Z"] }], variationKey: "yes" }
    ]
  })
  await server.createFlag("disabled-flag", "boolean", [{ key: "on", value: true }, { key: "off", value: false }])
  await server.target("disabled-flag", { enabled: false, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
  // Requires disabled-flag to serve "on", which it never does while disabled.
  await simple("gated-flag", "boolean", [{ key: "on", value: true }, { key: "off", value: false }], "on", {
    offVariationKey: "off",
    prerequisites: [{ flagKey: "disabled-flag", variationKey: "on" }]
  })
}, 120_000)

afterAll(() => server.close())
afterEach(() => OpenFeature.close())

const readyClient = async (options: Partial<Parameters<typeof createClient>[0]> = {}) => {
  const domain = newDomain()
  await OpenFeature.setProviderAndWait(domain, new FlagportProvider({ url: server.url, key: server.serverKey, environment: "production", stream: false, pollIntervalMs: 200, ...options }))
  return OpenFeature.getClient(domain)
}

type OfClient = Awaited<ReturnType<typeof readyClient>>
const details = (client: OfClient, type: (typeof FLAG_TYPES)[number], key: string, context: Record<string, unknown> = { targetingKey: "u1" }): Promise<EvaluationDetails<FlagValue>> => {
  switch (type) {
    case "boolean":
      return client.getBooleanDetails(key, false, context as never)
    case "string":
      return client.getStringDetails(key, "fallback", context as never)
    case "number":
      return client.getNumberDetails(key, -1, context as never)
    case "json":
      return client.getObjectDetails(key, { fallback: true }, context as never)
  }
}

describe("FlagportProvider through the OpenFeature SDK", () => {
  it("serves every flag type with its variant and metadata", async () => {
    const client = await readyClient()
    expect(await client.getBooleanDetails("bool-flag", false, { targetingKey: "u1" })).toMatchObject({ value: true, variant: "on", reason: "STATIC" })
    expect(await client.getStringValue("str-flag", "x", { targetingKey: "u1", country: "DE" })).toBe("de")
    expect(await client.getNumberDetails("num-flag", -1, { targetingKey: "u1" })).toMatchObject({ value: 0, variant: "zero" })
    expect(await client.getObjectValue("json-flag", {}, { targetingKey: "u1" })).toEqual({ theme: "dark", sizes: [1, 2] })
    const targeted = await client.getStringDetails("str-flag", "x", { targetingKey: "u1", country: "DE" })
    expect(targeted).toMatchObject({ value: "de", variant: "de", reason: "TARGETING_MATCH", flagMetadata: { ruleId: "germany", ruleIndex: 0 } })
    expect(targeted.errorCode).toBeUndefined()
  })

  it("maps every reason: TARGETING_MATCH, SPLIT, STATIC, DEFAULT, DISABLED", async () => {
    const client = await readyClient()
    const reasonOf = async (key: string, context: Record<string, unknown> = { targetingKey: "u1" }) =>
      (await client.getStringDetails(key, "fallback", context as never)).reason
    expect(await reasonOf("str-flag", { targetingKey: "u1", country: "DE" })).toBe("TARGETING_MATCH")
    expect(await client.getStringDetails("split-flag", "x", { targetingKey: "u1" })).toMatchObject({ value: "b", reason: "SPLIT", flagMetadata: { ruleId: "everyone", ruleIndex: 0 } })
    expect(await reasonOf("empty-str")).toBe("STATIC")
    expect(await reasonOf("str-flag", { targetingKey: "u1", country: "FR" })).toBe("DEFAULT")
    expect(await client.getBooleanDetails("disabled-flag", true, { targetingKey: "u1" })).toMatchObject({ value: false, variant: "off", reason: "DISABLED" })
  })

  it("maps a prerequisite not met to the reason PREREQUISITE_FAILED with the off variation, the flag not met in the metadata", async () => {
    const client = await readyClient()
    const details = await client.getBooleanDetails("gated-flag", true, { targetingKey: "u1" })
    expect(details).toMatchObject({ value: false, variant: "off", reason: "PREREQUISITE_FAILED" })
    expect(details.flagMetadata).toMatchObject({ prerequisiteKey: "disabled-flag" })
    expect(details.errorCode).toBeUndefined()
  })

  it("serves falsy values as values, integers up to 2^53-1 exactly, and a float 10.0 as the number 10", async () => {
    const client = await readyClient()
    expect(await client.getBooleanDetails("falsy-bool", true, { targetingKey: "u" })).toMatchObject({ value: false, variant: "off", reason: "STATIC" })
    expect(await client.getStringDetails("empty-str", "fallback", { targetingKey: "u" })).toMatchObject({ value: "", variant: "empty" })
    expect(await client.getNumberDetails("num-flag", 7, { targetingKey: "u" })).toMatchObject({ value: 0, variant: "zero" })
    expect(await client.getNumberValue("max-int", 0, { targetingKey: "u" })).toBe(9_007_199_254_740_991)
    const ten = await client.getNumberDetails("ten", 0, { targetingKey: "u" })
    expect(ten).toMatchObject({ value: 10, variant: "ten", reason: "STATIC" })
    expect(Number.isInteger(ten.value)).toBe(true)
  })

  it("the whole type-mismatch matrix: each typed getter against each flag type", async () => {
    const client = await readyClient()
    const fallbacks = { boolean: false, string: "fallback", number: -1, json: { fallback: true } }
    for (const asked of FLAG_TYPES) {
      for (const flagType of FLAG_TYPES) {
        const result = await details(client, asked, typedFlags[flagType])
        if (asked === flagType) {
          expect(result.errorCode, `${asked} getter on a ${flagType} flag`).toBeUndefined()
          expect(result.reason).not.toBe("ERROR")
        } else {
          expect(result, `${asked} getter on a ${flagType} flag`).toMatchObject({ value: fallbacks[asked], reason: "ERROR", errorCode: "TYPE_MISMATCH" })
          expect(result.errorMessage).toBe(`flag "${typedFlags[flagType]}" is a ${flagType} flag, not ${asked}`)
        }
      }
    }
  })

  it("an unknown flag is FLAG_NOT_FOUND with the default value", async () => {
    const client = await readyClient()
    const details = await client.getBooleanDetails("no-such-flag", true, { targetingKey: "u" })
    expect(details).toMatchObject({ value: true, reason: "ERROR", errorCode: "FLAG_NOT_FOUND" })
    // The message says what the code does not, without repeating it.
    expect(details.errorMessage).toBe('no flag "no-such-flag" in this environment')
  })

  it("a missing targeting key evaluates with the key absent; a Date attribute reaches date operators", async () => {
    const client = await readyClient()
    expect(await client.getStringDetails("vip-flag", "x", { targetingKey: "vip-user" })).toMatchObject({ value: "yes", reason: "TARGETING_MATCH" })
    expect(await client.getStringDetails("vip-flag", "x", {})).toMatchObject({ value: "no", reason: "DEFAULT" })
    // A rollout by key cannot bucket a context without one: evaluation goes on and falls through.
    expect(await client.getStringDetails("split-flag", "x", {})).toMatchObject({ value: "a", reason: "DEFAULT" })
    expect(await client.getStringDetails("vip-flag", "x", { signedUp: new Date("2026-06-01T00:00:00Z") })).toMatchObject({
      value: "yes",
      flagMetadata: { ruleId: "late", ruleIndex: 1 }
    })
  })

  it("hooks see the details: after for a value, error for an error code", async () => {
    const client = await readyClient()
    const seen: Array<string> = []
    const hook: Hook = {
      after: (_context, evaluation) => void seen.push(`after ${evaluation.flagKey} ${String(evaluation.value)} ${evaluation.variant} ${evaluation.reason} ${JSON.stringify(evaluation.flagMetadata)}`),
      error: (context, error) => void seen.push(`error ${context.flagKey} ${(error as { code?: string }).code}`),
      finally: (_context, evaluation) => void seen.push(`finally ${evaluation.flagKey} ${evaluation.errorCode ?? "-"}`)
    }
    client.addHooks(hook)
    await client.getStringValue("str-flag", "x", { targetingKey: "u", country: "DE" })
    await client.getNumberValue("str-flag", 0, { targetingKey: "u" })
    expect(seen).toEqual([
      // The flag's version comes with /v1/config: created (1), then targeted (2).
      'after str-flag de de TARGETING_MATCH {"ruleId":"germany","ruleIndex":0,"version":2}',
      "finally str-flag -",
      "error str-flag TYPE_MISMATCH",
      "finally str-flag TYPE_MISMATCH"
    ])
  })

  it("emits CONFIGURATION_CHANGED with the changed flags, STALE when the server is gone, READY when it is back", async () => {
    const local = await startFlagport()
    try {
      await local.createFlag("watched", "boolean", [{ key: "on", value: true }, { key: "off", value: false }])
      await local.target("watched", { enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [] })
      const domain = newDomain()
      await OpenFeature.setProviderAndWait(domain, new FlagportProvider({ url: local.url, key: local.serverKey, environment: "production", pollIntervalMs: 200 }))
      const client = OpenFeature.getClient(domain)
      const events: Array<string> = []
      client.addHandler(ProviderEvents.ConfigurationChanged, (details) => events.push(`changed ${JSON.stringify(details?.flagsChanged)}`))
      client.addHandler(ProviderEvents.Stale, () => events.push("stale"))
      client.addHandler(ProviderEvents.Ready, () => events.push("ready"))
      events.length = 0 // Ready handlers run at once for a provider that is already ready

      await local.target("watched", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      await expect.poll(() => events, { timeout: 3_000 }).toContain('changed ["watched"]')
      expect(await client.getBooleanValue("watched", false, { targetingKey: "u" })).toBe(true)

      await local.stop()
      await expect.poll(() => client.providerStatus, { timeout: 3_000 }).toBe(ProviderStatus.STALE)
      expect(await client.getBooleanValue("watched", false, { targetingKey: "u" })).toBe(true)
      await local.restart()
      await expect.poll(() => client.providerStatus, { timeout: 5_000 }).toBe(ProviderStatus.READY)
      expect(events).toEqual(['changed ["watched"]', "stale", "ready"])
    } finally {
      await OpenFeature.close()
      await local.close()
    }
  })

  it("emits ERROR for a configuration it refuses, and READY when a good one comes", async () => {
    const fake = await FakeFlagport.start()
    try {
      const good = { environment: "production", flags: [{ key: "f", type: "boolean", enabled: true, variations: [{ key: "on", value: true }], defaultVariationKey: "on", offVariationKey: "on", rules: [] }], segments: [] }
      fake.serve(good, 'W/"1"')
      const domain = newDomain()
      await OpenFeature.setProviderAndWait(domain, new FlagportProvider({ url: fake.url, key: "k", environment: "production", stream: false, pollIntervalMs: 100 }))
      const client = OpenFeature.getClient(domain)
      const errors: Array<string | undefined> = []
      client.addHandler(ProviderEvents.Error, (details) => errors.push(details?.message))
      fake.serve({ ...good, flags: "nope" }, 'W/"2"')
      await expect.poll(() => errors, { timeout: 3_000 }).toEqual(["refused a configuration from the server, kept the previous one: flags must be an array"])
      expect(client.providerStatus).toBe(ProviderStatus.ERROR)
      expect(await client.getBooleanValue("f", false)).toBe(true)
      fake.serve(good, 'W/"3"')
      await expect.poll(() => client.providerStatus, { timeout: 3_000 }).toBe(ProviderStatus.READY)
    } finally {
      await OpenFeature.close()
      await fake.close()
    }
  })

  it("a client passed in while it stands by a refused configuration: initialize fails with GENERAL and that message, told once", async () => {
    const fake = await FakeFlagport.start()
    const good = { environment: "production", flags: [{ key: "f", type: "boolean", enabled: true, variations: [{ key: "on", value: true }], defaultVariationKey: "on", offVariationKey: "on", rules: [] }], segments: [] }
    fake.serve(good, 'W/"1"')
    const flags = await createClient({ url: fake.url, key: "k", environment: "production", stream: false, pollIntervalMs: 100 })
    try {
      fake.serve({ ...good, flags: "nope" }, 'W/"2"')
      await new Promise<void>((resolve) => flags.on("error", () => resolve()))
      fake.serve({ ...good, flags: "still nope" }, 'W/"3"') // the same problem from here on: not told again
      const domain = newDomain()
      const client = OpenFeature.getClient(domain)
      const errors: Array<string | undefined> = []
      client.addHandler(ProviderEvents.Error, (details) => errors.push(details?.message))
      await expect(OpenFeature.setProviderAndWait(domain, new FlagportProvider(flags))).rejects.toMatchObject({
        code: "GENERAL",
        message: "refused a configuration from the server, kept the previous one: flags must be an array"
      })
      await expect.poll(() => errors).toEqual(["refused a configuration from the server, kept the previous one: flags must be an array"])
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(errors).toHaveLength(1)
      expect(client.providerStatus).toBe(ProviderStatus.ERROR)
      expect(await client.getBooleanValue("f", false)).toBe(true)
      fake.serve(good, 'W/"4"')
      await expect.poll(() => client.providerStatus, { timeout: 3_000 }).toBe(ProviderStatus.READY)
    } finally {
      await OpenFeature.close()
      await flags.close()
      await fake.close()
    }
  })

  it("a flag that cannot be evaluated is GENERAL (from a bootstrap: the server refuses to store one)", async () => {
    const broken = {
      environment: "production",
      flags: [
        {
          key: "broken",
          type: "string",
          enabled: true,
          variations: [{ key: "a", value: "a" }],
          defaultVariationKey: "a",
          offVariationKey: "a",
          rules: [{ id: "r", conditions: [], rollout: { variations: [{ variationKey: "a", weight: 10 }] } }]
        }
      ],
      segments: []
    } as unknown as ConfigSnapshot
    const flags = await createClient({ url: `http://127.0.0.1:${await freePort()}`, key: "k", bootstrap: broken })
    try {
      const domain = newDomain()
      await OpenFeature.setProviderAndWait(domain, new FlagportProvider(flags))
      const result = await OpenFeature.getClient(domain).getStringDetails("broken", "fallback", { targetingKey: "u" })
      expect(result).toMatchObject({ value: "fallback", reason: "ERROR", errorCode: "GENERAL" })
      expect(result.errorMessage).toMatch(/^INVALID_DEFINITION: rule "r" rollout weights sum to 10/)
    } finally {
      await OpenFeature.close()
      expect(flags.status).not.toBe("closed") // a client passed in belongs to the caller
      await flags.close()
    }
  })

  it("initialisation against an unreachable server: ERROR status, PROVIDER_NOT_READY, then READY when the server comes up", async () => {
    const local = await startFlagport()
    try {
      await local.createFlag("later", "boolean", [{ key: "on", value: true }, { key: "off", value: false }])
      await local.target("later", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      await local.stop()
      const port = await freePort()
      const domain = newDomain()
      const provider = new FlagportProvider({ url: `http://127.0.0.1:${port}`, key: local.serverKey, environment: "production", startTimeoutMs: 300, backoff: { initialMs: 100, maxMs: 300 } })
      await expect(OpenFeature.setProviderAndWait(domain, provider)).rejects.toThrow(/no configuration within the start timeout/)
      const client = OpenFeature.getClient(domain)
      expect(client.providerStatus).toBe(ProviderStatus.ERROR)
      expect(await client.getBooleanDetails("later", false, { targetingKey: "u" })).toMatchObject({ value: false, reason: "ERROR", errorCode: "PROVIDER_NOT_READY" })
      await local.restart(port)
      await expect.poll(() => client.providerStatus, { timeout: 5_000 }).toBe(ProviderStatus.READY)
      expect(await client.getBooleanValue("later", false, { targetingKey: "u" })).toBe(true)
    } finally {
      await OpenFeature.close()
      await local.close()
    }
  })

  it("shutdown closes the client it started: its stream ends", async () => {
    const fake = await FakeFlagport.start()
    try {
      fake.serve({ environment: "production", flags: [], segments: [] }, 'W/"1"')
      fake.stream = "open"
      await OpenFeature.setProviderAndWait(newDomain(), new FlagportProvider({ url: fake.url, key: "k", environment: "production" }))
      await expect.poll(() => fake.openStreams, { timeout: 3_000 }).toBe(1)
      await OpenFeature.close()
      await expect.poll(() => fake.openStreams, { timeout: 3_000 }).toBe(0)
    } finally {
      await fake.close()
    }
  })
})
