/**
 * The flags the OFREP provider tests evaluate, made through the management API of a real server
 * (test/http/fixtures.ts): one per flag type, and one per reason.
 */
import { request, type TestServer } from "../http/fixtures.js"

export const ENVIRONMENT = "development"

/** The headers an OFREP provider sends: the client key, and the environment it names. */
export const ofrepHeaders = (t: TestServer): Array<[string, string]> => [
  ["Authorization", `Bearer ${t.keys.client}`],
  ["Flagport-Environment", ENVIRONMENT]
]

export const seedOfrepFlags = async (t: TestServer): Promise<void> => {
  const call = async (method: string, path: string, body: unknown) => {
    const reply = await request(t.url, method, path, { key: t.keys.scoped, body })
    if (reply.status >= 300) throw new Error(`setup failed: ${method} ${path} -> ${reply.status} ${reply.text}`)
  }
  const flag = async (key: string, type: string, variations: ReadonlyArray<{ key: string; value: unknown }>, targeting: Record<string, unknown>) => {
    await call("POST", "/v1/projects/p1/flags", { key, type, variations })
    await call("PUT", `/v1/projects/p1/flags/${key}/targeting`, { environment: ENVIRONMENT, ...targeting })
  }
  const onOff = [{ key: "on", value: true }, { key: "off", value: false }]
  // boolean, a targeting match for beta users
  await flag("beta-banner", "boolean", onOff, {
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ id: "beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }]
  })
  // string, a split bucketed by the targeting key (100% to "b", so the answer is known)
  await flag("checkout-copy", "string", [{ key: "a", value: "Buy" }, { key: "b", value: "Buy now" }], {
    enabled: true,
    defaultVariationKey: "a",
    offVariationKey: "a",
    rules: [{ id: "everyone", conditions: [], rollout: { variations: [{ variationKey: "b", weight: 100_000 }] } }]
  })
  // number, no rules
  await flag("page-size", "number", [{ key: "small", value: 10 }, { key: "large", value: 50 }], {
    enabled: true,
    defaultVariationKey: "large",
    offVariationKey: "small",
    rules: []
  })
  // object, no rules
  await flag("theme", "json", [{ key: "light", value: { mode: "light" } }, { key: "dark", value: { mode: "dark", contrast: 2 } }], {
    enabled: true,
    defaultVariationKey: "dark",
    offVariationKey: "light",
    rules: []
  })
  // disabled: serves its off variation
  await flag("legacy-mode", "boolean", onOff, { enabled: false, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
}
