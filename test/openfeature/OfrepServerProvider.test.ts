/**
 * The unmodified community OFREP server provider (`@openfeature/ofrep-provider` with
 * `@openfeature/server-sdk`) against a running Flagport: it evaluates each flag with
 * POST /ofrep/v1/evaluate/flags/{key}. Every flag type, a targeting match, a split, a disabled
 * flag, an unknown flag (the default value with FLAG_NOT_FOUND) and a missing targeting key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { OFREPProvider } from "@openfeature/ofrep-provider"
import { ErrorCode, OpenFeature, StandardResolutionReasons } from "@openfeature/server-sdk"
import { startServer, type TestServer } from "../http/fixtures.js"
import { ofrepHeaders, seedOfrepFlags } from "./OfrepFlags.js"

let t: TestServer
const DOMAIN = "flagport-ofrep-server"
const client = () => OpenFeature.getClient(DOMAIN)

beforeAll(async () => {
  t = await startServer()
  await seedOfrepFlags(t)
  await OpenFeature.setProviderAndWait(DOMAIN, new OFREPProvider({ baseUrl: t.url, headers: ofrepHeaders(t) }))
})
afterAll(async () => {
  await OpenFeature.clearProviders()
  await t?.close()
})

describe("@openfeature/ofrep-provider against Flagport", () => {
  it("a boolean flag: the targeting match for beta users, the default for the others", async () => {
    const beta = await client().getBooleanDetails("beta-banner", false, { targetingKey: "u1", plan: "beta" })
    expect(beta).toMatchObject({ value: true, reason: StandardResolutionReasons.TARGETING_MATCH, variant: "on" })
    expect(beta.flagMetadata).toMatchObject({ ruleId: "beta", ruleIndex: 0, version: 2 })
    const other = await client().getBooleanDetails("beta-banner", true, { targetingKey: "u1", plan: "free" })
    expect(other).toMatchObject({ value: false, reason: StandardResolutionReasons.DEFAULT, variant: "off" })
  })
  it("a string flag served by a split", async () => {
    const details = await client().getStringDetails("checkout-copy", "fallback", { targetingKey: "u1" })
    expect(details).toMatchObject({ value: "Buy now", reason: StandardResolutionReasons.SPLIT, variant: "b" })
  })
  it("a number flag and an object flag without rules are STATIC", async () => {
    expect(await client().getNumberDetails("page-size", 0, { targetingKey: "u1" })).toMatchObject({ value: 50, reason: StandardResolutionReasons.STATIC, variant: "large" })
    expect(await client().getObjectDetails("theme", {}, { targetingKey: "u1" })).toMatchObject({
      value: { mode: "dark", contrast: 2 },
      reason: StandardResolutionReasons.STATIC,
      variant: "dark"
    })
  })
  it("a disabled flag serves its off variation, DISABLED", async () => {
    expect(await client().getBooleanDetails("legacy-mode", true, { targetingKey: "u1" })).toMatchObject({ value: false, reason: StandardResolutionReasons.DISABLED })
  })
  it("an unknown flag reaches the application as its default value with FLAG_NOT_FOUND", async () => {
    const details = await client().getStringDetails("no-such-flag", "default", { targetingKey: "u1" })
    expect(details).toMatchObject({ value: "default", reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.FLAG_NOT_FOUND })
  })
  it("without a targeting key the flag is evaluated, not refused: the split does not apply", async () => {
    const details = await client().getStringDetails("checkout-copy", "fallback", { plan: "beta" })
    expect(details).toMatchObject({ value: "Buy", reason: StandardResolutionReasons.DEFAULT, variant: "a" })
    expect(details.errorCode).toBeUndefined()
    expect(await client().getBooleanValue("beta-banner", false, { plan: "beta" })).toBe(true)
  })
})
