/** Prerequisites in targeting and `/v1/explain`. */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Endpoints } from "./harness.js"

export const prerequisites = ({ t, call, request, expectError }: Endpoints) =>
  describe("prerequisites and explain", () => {
    const booleanFlag = (key: string) => ({ key, name: key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    const target = (key: string, body: Record<string, unknown>) =>
      call("PUT", `/v1/projects/p1/flags/${key}/targeting`, { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [], ...body })
    beforeAll(async () => {
      for (const key of ["pre-base", "pre-child"]) expect((await call("POST", "/v1/projects/p1/flags", booleanFlag(key))).status).toBe(201)
      await target("pre-base", { rules: [{ id: "pro", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }], variationKey: "on" }], defaultVariationKey: "off" })
      const child = await target("pre-child", { prerequisites: [{ flagKey: "pre-base", variationKey: "on" }] })
      expect(child.status, child.text).toBe(200)
    })
    it("PUT targeting stores prerequisites; GET /v1/config carries them", async () => {
      const flag = (await call("GET", "/v1/projects/p1/flags/pre-child")).body as { configs: Array<{ environmentKey: string; prerequisites: unknown }> }
      expect(flag.configs.find((c) => c.environmentKey === "production")!.prerequisites).toEqual([{ flagKey: "pre-base", variationKey: "on" }])
      const config = (await request(t.url, "GET", "/v1/config?environment=production", { key: t.keys.client })).body as { flags: Array<{ key: string; prerequisites: unknown }> }
      expect(config.flags.find((f) => f.key === "pre-child")!.prerequisites).toEqual([{ flagKey: "pre-base", variationKey: "on" }])
    })
    it("a cycle, an unknown flag or variation is 400; deleting a required flag is 409; nothing changes", async () => {
      const before = (await call("GET", "/v1/projects/p1/flags/pre-base")).body
      expectError("prerequisites.cycle", await target("pre-base", { prerequisites: [{ flagKey: "pre-child", variationKey: "on" }] }), 400, "invalid_request")
      expectError("prerequisites.unknown", await target("pre-child", { prerequisites: [{ flagKey: "pre-nope", variationKey: "on" }, { flagKey: "pre-base", variationKey: "maybe" }] }), 400, "invalid_request")
      expectError("prerequisites.deleteRequired", await call("DELETE", "/v1/projects/p1/flags/pre-base"), 409, "conflict")
      expect((await call("GET", "/v1/projects/p1/flags/pre-base")).body).toEqual(before)
    })
    it("POST /v1/explain answers the single-flag route's result and the trace, with a client key", async () => {
      for (const [plan, kind] of [["pro", "FALLTHROUGH"], ["free", "PREREQUISITE_FAILED"]] as const) {
        const context = { key: "user-1", attributes: { plan } }
        const explained = await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", flagKey: "pre-child", context } })
        expect(explained.status, explained.text).toBe(200)
        const single = await request(t.url, "GET", `/v1/flags/pre-child/eval?environment=production&key=user-1&attributes=${encodeURIComponent(JSON.stringify({ plan }))}`, { key: t.keys.client })
        const body = explained.body as { result: { reason: { kind: string } }; trace: { prerequisites: Array<{ flagKey: string; met: boolean; trace: { rules: Array<{ conditions: Array<{ value: unknown }> }> } }> } }
        expect(body.result).toEqual(single.body)
        expect(body.result.reason.kind).toBe(kind)
        expect(body.trace.prerequisites[0]!.flagKey).toBe("pre-base")
        expect(body.trace.prerequisites[0]!.met).toBe(kind === "FALLTHROUGH")
        expect(body.trace.prerequisites[0]!.trace.rules[0]!.conditions[0]!.value).toBe(plan)
      }
    })
    it("POST /v1/explain: an unknown flag is 404, a bad body 400, as the evaluation routes", async () => {
      expectError("explain.unknownFlag", await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", flagKey: "pre-nope", context: { key: "u" } } }), 404, "not_found")
      expectError("explain.badBody", await request(t.url, "POST", "/v1/explain", { key: t.keys.client, body: { environment: "production", context: { key: "u" }, extra: 1 } }), 400, "invalid_request")
    })
  })
