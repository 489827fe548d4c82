/**
 * The unmodified community OFREP web provider (`@openfeature/ofrep-web-provider` with
 * `@openfeature/web-sdk`) against a running Flagport: it fetches every flag for the context at
 * once with POST /ofrep/v1/evaluate/flags and evaluates from that answer, refetching when the
 * context changes. Every flag type, a targeting match, a split, a disabled flag, an unknown flag
 * (the default value with FLAG_NOT_FOUND) and a missing targeting key.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { OFREPWebProvider } from "@openfeature/ofrep-web-provider"
import { ErrorCode, OpenFeature, type Provider, StandardResolutionReasons } from "@openfeature/web-sdk"
import { startServer, type TestServer } from "../http/fixtures.js"
import { ofrepHeaders, seedOfrepFlags } from "./OfrepFlags.js"

let t: TestServer
const client = () => OpenFeature.getClient()

beforeAll(async () => {
  t = await startServer()
  await seedOfrepFlags(t)
  await OpenFeature.setContext({ targetingKey: "u1", plan: "beta" })
  // No browser here: no visibility events, no local storage cache, no polling between the tests.
  const provider = new OFREPWebProvider({ baseUrl: t.url, headers: ofrepHeaders(t), disableVisibilityRefresh: true, cacheMode: "disabled", pollInterval: 0 })
  // The provider is typed against its own copy of @openfeature/core, which exactOptionalPropertyTypes
  // tells apart from the web SDK's; at run time it is the provider the SDK expects.
  await OpenFeature.setProviderAndWait(provider as unknown as Provider)
})
afterAll(async () => {
  await OpenFeature.clearProviders()
  await t?.close()
})

describe("@openfeature/ofrep-web-provider against Flagport", () => {
  it("a boolean flag: the targeting match for a beta user", () => {
    const details = client().getBooleanDetails("beta-banner", false)
    expect(details).toMatchObject({ value: true, reason: StandardResolutionReasons.TARGETING_MATCH, variant: "on" })
    expect(details.flagMetadata).toMatchObject({ ruleId: "beta", ruleIndex: 0, version: 2 })
  })
  it("a string flag served by a split, a number and an object flag without rules", () => {
    expect(client().getStringDetails("checkout-copy", "fallback")).toMatchObject({ value: "Buy now", reason: StandardResolutionReasons.SPLIT, variant: "b" })
    expect(client().getNumberDetails("page-size", 0)).toMatchObject({ value: 50, reason: StandardResolutionReasons.STATIC })
    expect(client().getObjectDetails("theme", {})).toMatchObject({ value: { mode: "dark", contrast: 2 }, reason: StandardResolutionReasons.STATIC })
  })
  it("a disabled flag serves its off variation, DISABLED", () => {
    expect(client().getBooleanDetails("legacy-mode", true)).toMatchObject({ value: false, reason: StandardResolutionReasons.DISABLED })
  })
  it("an unknown flag reaches the application as its default value with FLAG_NOT_FOUND", () => {
    expect(client().getStringDetails("no-such-flag", "default")).toMatchObject({
      value: "default",
      reason: StandardResolutionReasons.ERROR,
      errorCode: ErrorCode.FLAG_NOT_FOUND
    })
  })
  it("a context without a targeting key is evaluated after the refetch, not refused", async () => {
    await OpenFeature.setContext({ plan: "free" })
    expect(client().getStringDetails("checkout-copy", "fallback")).toMatchObject({ value: "Buy", reason: StandardResolutionReasons.DEFAULT, variant: "a" })
    expect(client().getBooleanDetails("beta-banner", true)).toMatchObject({ value: false, reason: StandardResolutionReasons.DEFAULT })
    expect(client().getBooleanDetails("beta-banner", true).errorCode).toBeUndefined()
  })
})
