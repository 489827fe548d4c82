/**
 * An experiment worth looking at, for the results page's test and the docs' screenshot: the flag
 * `new-checkout` (Checkout v2 against the classic checkout) whose production rule "Half" splits
 * units 50/50 behind a beta list, and the running experiment `checkout-redesign` on that rule
 * with a conversion metric, a revenue metric and an error guardrail; and its traffic, sent as
 * SDKs send it.
 */
import { request, type TestServer } from "../http/fixtures.js"

export const FLAG = {
  key: "new-checkout",
  name: "New checkout",
  type: "boolean",
  variations: [{ key: "v2", value: true, name: "Checkout v2" }, { key: "classic", value: false, name: "Classic checkout" }]
}

export const TARGETING = {
  environment: "production",
  enabled: true,
  defaultVariationKey: "classic",
  offVariationKey: "classic",
  rules: [
    { name: "Beta list", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "v2" },
    { name: "Half", conditions: [], rollout: { bucketBy: "userId", variations: [{ variationKey: "v2", weight: 50_000 }, { variationKey: "classic", weight: 50_000 }] } }
  ]
}

export const METRICS = [
  { key: "conversion", event: "purchase", kind: "conversion", goal: "increase", role: "primary", windowHours: 168 },
  { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" },
  { key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }
] as const

/** The API with the server's global key; throws on a refusal. */
export const apiOf = (server: TestServer) => async (method: string, path: string, body?: unknown): Promise<unknown> => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`)
  return reply.body
}

/** The flag, its targeting and the running experiment, through the API. */
export const setUpExperiment = async (server: TestServer): Promise<void> => {
  const api = apiOf(server)
  await api("POST", "/v1/projects/p1/flags", FLAG)
  await api("PUT", `/v1/projects/p1/flags/${FLAG.key}/targeting`, TARGETING)
  const flag = (await api("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ id: string; name?: string }> }> }
  const ruleId = flag.configs.find((c) => c.environmentKey === "production")!.rules.find((r) => r.name === "Half")!.id
  await api("POST", "/v1/projects/p1/experiments", {
    key: "checkout-redesign",
    name: "Checkout redesign",
    hypothesis: "The one-page checkout converts more visitors into buyers",
    flagKey: FLAG.key,
    environment: "production",
    ruleId,
    controlVariationKey: "classic",
    metrics: METRICS
  })
  await api("POST", "/v1/projects/p1/experiments/checkout-redesign/start")
}

/** One variation's traffic: `units` exposed units, the share that purchased (each spending `spend`), and the share that hit an error. */
export interface Traffic {
  readonly variationKey: "v2" | "classic"
  readonly units: number
  readonly purchased: number
  readonly spend: number
  readonly errored: number
}

/**
 * Sends the experiment's traffic as SDKs would, with the project's server key: an exposure per
 * unit (`POST /v1/exposures`), then its purchases and errors (`POST /v1/track`) a second later,
 * 1,000 items a request. Unit ids start with `prefix`, so each call adds new units.
 */
export const sendTraffic = async (server: TestServer, prefix: string, traffic: ReadonlyArray<Traffic>): Promise<void> => {
  const flag = (await apiOf(server)("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ id: string; name?: string }> }> }
  const ruleId = flag.configs.find((c) => c.environmentKey === "production")!.rules.find((r) => r.name === "Half")!.id
  const exposedAt = new Date()
  const after = new Date(exposedAt.getTime() + 1_000).toISOString()
  const exposures: Array<unknown> = []
  const events: Array<unknown> = []
  for (const t of traffic) {
    for (let i = 0; i < t.units; i++) {
      const unit = `${prefix}-${t.variationKey}-${i}`
      exposures.push({ flagKey: FLAG.key, variationKey: t.variationKey, ruleId, unit, timestamp: exposedAt.toISOString() })
      if (i < Math.round(t.units * t.purchased)) events.push({ event: "purchase", unit, value: t.spend, timestamp: after })
      if (i >= t.units - Math.round(t.units * t.errored)) events.push({ event: "checkout-error", unit, timestamp: after })
    }
  }
  const post = async (path: string, field: string, items: ReadonlyArray<unknown>) => {
    for (let i = 0; i < items.length; i += 1_000) {
      const reply = await request(server.url, "POST", path, { key: server.keys.scoped, body: { environment: "production", [field]: items.slice(i, i + 1_000) } })
      if (reply.status !== 202) throw new Error(`POST ${path}: ${reply.status} ${reply.text}`)
    }
  }
  await post("/v1/exposures", "exposures", exposures)
  await post("/v1/track", "events", events)
}
