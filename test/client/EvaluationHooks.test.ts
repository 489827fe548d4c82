/**
 * Evaluation hooks (issue 29): the SDK's `onEvaluation` sees each exposure (flag, variation,
 * reason, the context's key, value), and the OpenFeature provider, through the real OpenFeature
 * server SDK, gives a hook what OpenFeature's own telemetry helper (`createEvaluationEvent`) turns
 * into `feature_flag.evaluation` events with the semantic conventions' attributes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createEvaluationEvent, type EvaluationDetails, type FlagValue, type Hook, type HookContext, OpenFeature } from "@openfeature/server-sdk"
import { createClient, type EvaluationEvent } from "../../adapters/client/index.js"
import { FlagportProvider } from "../../adapters/openfeature/index.js"
import { type Flagport, startFlagport } from "./RealServer.js"

let server: Flagport

beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("checkout", "boolean", [{ key: "on", value: true }, { key: "off", value: false }])
  await server.target("checkout", {
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "vips", conditions: [{ attribute: "key", operator: "in", values: ["vip-user"] }], variationKey: "on" }]
  })
  await server.createFlag("banner", "json", [{ key: "plain", value: { text: "hi" } }, { key: "none", value: null }])
  await server.target("banner", { enabled: true, defaultVariationKey: "plain", offVariationKey: "none", rules: [] })
}, 120_000)

afterAll(() => server.close())

const clientOptions = { stream: false, sendInsights: false } as const

describe("onEvaluation (flagport/client)", () => {
  it("sees every getter's and detail's evaluation, with the context's key; not `all`", async () => {
    const events: Array<EvaluationEvent> = []
    const client = await createClient({ url: server.url, key: server.serverKey, environment: "production", ...clientOptions, onEvaluation: (e) => events.push(e) })
    try {
      expect(client.boolean("checkout", { key: "vip-user" }, false)).toBe(true)
      expect(client.boolean("checkout", { key: "someone" }, true)).toBe(false)
      expect(client.json("banner", {}, null)).toEqual({ text: "hi" })
      expect(client.string("missing", { key: "u" }, "fallback")).toBe("fallback")
      expect(client.number("checkout", { key: "u" }, 7)).toBe(7)
      client.detail("checkout", { key: "vip-user" }, false)
      client.all({ key: "vip-user" })
      expect(events.map((e) => [e.flagKey, e.variationKey, e.reason.kind, e.contextKey, e.value, e.errorCode])).toEqual([
        ["checkout", "on", "RULE_MATCH", "vip-user", true, undefined],
        ["checkout", "off", "FALLTHROUGH", "someone", false, undefined],
        ["banner", "plain", "FALLTHROUGH", undefined, { text: "hi" }, undefined],
        ["missing", null, "ERROR", "u", "fallback", "FLAG_NOT_FOUND"],
        ["checkout", null, "ERROR", "u", 7, "TYPE_MISMATCH"],
        ["checkout", "on", "RULE_MATCH", "vip-user", true, undefined]
      ])
      expect(events[0]!.reason.ruleId).toBe("vips")
      expect(events[0]!.version).toBe(2)
    } finally {
      await client.close()
    }
  })

  it("a hook that throws never reaches the caller and is reported once as an error event", async () => {
    const client = await createClient({
      url: server.url,
      key: server.serverKey,
      environment: "production",
      ...clientOptions,
      onEvaluation: () => {
        throw new Error("analytics down")
      }
    })
    const errors: Array<string> = []
    client.on("error", (message) => errors.push(message))
    try {
      expect(client.boolean("checkout", { key: "vip-user" }, false)).toBe(true)
      expect(client.boolean("checkout", { key: "vip-user" }, false)).toBe(true)
      expect(errors).toEqual(["onEvaluation threw (reported once): analytics down"])
      expect(client.status).toBe("ready")
    } finally {
      await client.close()
    }
  })

  it("refuses a hook that is not a function", async () => {
    await expect(createClient({ url: server.url, key: server.serverKey, onEvaluation: "log" as never })).rejects.toThrow("onEvaluation must be a function")
  })
})

describe("OpenFeature telemetry hooks over FlagportProvider", () => {
  it("a finally hook turns each evaluation into a feature_flag.evaluation event (OpenFeature's createEvaluationEvent)", async () => {
    const events: Array<ReturnType<typeof createEvaluationEvent>> = []
    const telemetry: Hook = {
      finally: (hookContext: Readonly<HookContext<FlagValue>>, details: EvaluationDetails<FlagValue>) => {
        events.push(createEvaluationEvent(hookContext, details))
      }
    }
    await OpenFeature.setProviderAndWait("telemetry", new FlagportProvider({ url: server.url, key: server.serverKey, environment: "production", ...clientOptions }))
    try {
      const client = OpenFeature.getClient("telemetry")
      client.addHooks(telemetry)
      expect(await client.getBooleanValue("checkout", false, { targetingKey: "vip-user" })).toBe(true)
      expect(await client.getBooleanValue("checkout", false, { targetingKey: "someone" })).toBe(false)
      expect(await client.getObjectValue("banner", {}, { targetingKey: "u" })).toEqual({ text: "hi" })
      expect(await client.getStringValue("missing", "fallback", { targetingKey: "u" })).toBe("fallback")

      expect(events.map((e) => e.name)).toEqual(Array(4).fill("feature_flag.evaluation"))
      expect(events[0]!.attributes).toEqual({
        "feature_flag.key": "checkout",
        "feature_flag.provider.name": "flagport",
        "feature_flag.result.reason": "targeting_match",
        "feature_flag.result.variant": "on",
        "feature_flag.result.value": true,
        "feature_flag.context.id": "vip-user",
        "feature_flag.version": 2
      })
      expect(events[1]!.attributes).toMatchObject({ "feature_flag.result.reason": "default", "feature_flag.result.variant": "off", "feature_flag.result.value": false })
      // A flag without rules: OpenFeature's STATIC; an object value as JSON text.
      expect(events[2]!.attributes).toMatchObject({ "feature_flag.result.reason": "static", "feature_flag.result.variant": "plain", "feature_flag.result.value": '{"text":"hi"}' })
      expect(events[3]!.attributes).toMatchObject({
        "feature_flag.key": "missing",
        "feature_flag.result.reason": "error",
        "error.type": "flag_not_found",
        "feature_flag.result.value": "fallback"
      })
      expect(events[3]!.attributes["feature_flag.result.variant"]).toBeUndefined()
    } finally {
      await OpenFeature.close()
    }
  })
})
