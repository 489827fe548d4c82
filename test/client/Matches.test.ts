/**
 * The client's `matches` conditions: the RE2 engine is loaded on demand (adapters/client/
 * RegexLoading.ts), before a configuration that needs it is installed, so a `matches` flag answers
 * as the server does from the first evaluation, whether the configuration came from a bootstrap
 * or from the server, and whether it is the first configuration or a later change. The patterns
 * use RE2 syntax JavaScript's RegExp refuses (`(?i)`), so a right answer comes from RE2.
 */
import { describe, expect, it } from "@effect/vitest"
import { type ConfigSnapshot, createClient } from "../../adapters/client/index.js"
import { usesRegex } from "../../adapters/client/RegexLoading.js"
import { freePort } from "../cli/Process.js"
import { request } from "../http/fixtures.js"
import { type Flagport, startFlagport } from "./RealServer.js"
import { onOff, track } from "./Tracked.js"

const staffEmail = { attribute: "email", operator: "matches", values: ["(?i)^[a-z.]+@EXAMPLE\\.com$"] }
const staffRule = { id: "staff", conditions: [staffEmail], variationKey: "on" }
const staffFlag = { key: "staff-only", type: "boolean", enabled: true, variations: onOff, defaultVariationKey: "off", offVariationKey: "off", rules: [staffRule] }
const staffInSegment = {
  ...staffFlag,
  key: "staff-segment",
  rules: [{ id: "seg", conditions: [{ attribute: "", operator: "inSegment", values: ["staff"] }], variationKey: "on" }]
}
const config = (flags: ReadonlyArray<unknown>, segments: ReadonlyArray<unknown> = []) => ({ environment: "production", flags, segments }) as unknown as ConfigSnapshot

const staff = { key: "u1", attributes: { email: "Ada.Lovelace@example.com" } }
const guest = { key: "u2", attributes: { email: "ada@example.org" } }

const within = async (ms: number, check: () => boolean): Promise<void> => {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe("matches in the client", () => {
  it("tells which configurations need the engine: a matches condition in a flag's rule or in a segment", () => {
    expect(usesRegex(config([{ ...staffFlag, rules: [] }]))).toBe(false)
    expect(usesRegex(config([staffFlag]))).toBe(true)
    expect(usesRegex(config([staffInSegment], [{ key: "staff", conditions: [staffEmail] }]))).toBe(true)
  })

  it("evaluates a fetched configuration's matches flag, first without one and then after a change adds it, as the server does", async () => {
    const server = track(await startFlagport())
    await server.createFlag("staff-only", "boolean", onOff)
    await server.target("staff-only", { enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [] })
    const flags = track(await createClient({ url: server.url, key: server.serverKey, environment: "production", stream: false, pollIntervalMs: 200 }))
    expect(flags.boolean("staff-only", staff, true)).toBe(false)

    await server.target("staff-only", { enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [staffRule] })
    await within(3_000, () => flags.boolean("staff-only", staff, false))
    expect(flags.detail("staff-only", staff, false)).toMatchObject({ value: true, variationKey: "on", reason: { kind: "RULE_MATCH", ruleId: "staff" } })
    expect(flags.boolean("staff-only", guest, true)).toBe(false)
    for (const context of [staff, guest]) {
      const remote = await request(server.url, "POST", "/v1/evaluate", { key: server.serverKey, body: { environment: "production", context } })
      expect(remote.status).toBe(200)
      expect(flags.all(context)["staff-only"]).toEqual((remote.body as { readonly flags: Record<string, unknown> }).flags["staff-only"])
    }
  })

  it("evaluates a bootstrap configuration's matches conditions (in a rule and in a segment) from the first call, with no server", async () => {
    const port = await freePort()
    const bootstrap = config([staffFlag, staffInSegment], [{ key: "staff", conditions: [staffEmail] }])
    const flags = track(await createClient({ url: `http://127.0.0.1:${port}`, key: "k", environment: "production", bootstrap, startTimeoutMs: 10_000 }))
    for (const key of ["staff-only", "staff-segment"]) {
      expect(flags.boolean(key, staff, false)).toBe(true)
      expect(flags.boolean(key, guest, true)).toBe(false)
      expect(flags.boolean(key, { key: "u3", attributes: { email: ["x@y.org", "grace@Example.COM"] } }, false)).toBe(true)
    }
  })
})
