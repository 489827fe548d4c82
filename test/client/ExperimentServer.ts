/**
 * A real server (SQLite or PostgreSQL) with an experiment for the SDK's exposure and tracking
 * tests: flag `checkout` in production, rule `beta` (attribute `beta` true: always `on`) before
 * rule `half` (a 50/50 rollout by the attribute `userId`), measured by the running experiment
 * `redesign` (metrics on the events `purchase` and `page_load`). Plus a `fetch` that records what
 * the SDK posts and can fail on purpose (the server's answer lost, the server unreachable, a send
 * that never ends).
 */
import { Effect } from "effect"
import type { UnitRow } from "../../src/domain/experiments/Exposure.js"
import { ExperimentUnitRepository } from "../../src/ports/ExperimentUnitRepository.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

export const ROLLOUT = { bucketBy: "userId", variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] }
export const METRICS = [
  { key: "buys", event: "purchase", kind: "conversion", goal: "increase", role: "primary" },
  { key: "revenue", event: "purchase", kind: "mean", goal: "increase", role: "secondary" },
  { key: "speed", event: "page_load", kind: "mean", goal: "decrease", role: "guardrail" }
]

export interface ExperimentServer {
  readonly t: TestServer
  /** The running experiment's id. */
  readonly experimentId: string
  /** Its unit rows, ordered by unit. */
  readonly units: () => Promise<ReadonlyArray<UnitRow>>
  readonly close: () => Promise<void>
}

const ok = async (what: string, reply: Promise<{ status: number; text: string }>) => {
  const { status, text } = await reply
  if (status >= 300) throw new Error(`${what}: ${status} ${text}`)
  return text
}

export const startExperimentServer = async (backend: "sqlite" | "postgres", options: { readonly start?: boolean } = {}): Promise<ExperimentServer & { readonly start: () => Promise<string> }> => {
  const t = await startServer(freshStorage(backend))
  const key = t.keys.global
  await ok("flag", request(t.url, "POST", "/v1/projects/p1/flags", { key, body: { key: "checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] } }))
  await ok("plain flag", request(t.url, "POST", "/v1/projects/p1/flags", { key, body: { key: "banner", type: "string", variations: [{ key: "a", value: "A" }, { key: "b", value: "B" }] } }))
  const rules = [
    { id: "beta", conditions: [{ attribute: "beta", operator: "in", values: [true] }], variationKey: "on" },
    { id: "half", conditions: [], rollout: ROLLOUT }
  ]
  await ok("targeting", request(t.url, "PUT", "/v1/projects/p1/flags/checkout/targeting", { key, body: { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules } }))
  await ok("banner targeting", request(t.url, "PUT", "/v1/projects/p1/flags/banner/targeting", {
    key,
    body: { environment: "production", enabled: true, defaultVariationKey: "a", offVariationKey: "a", rules: [{ id: "split", conditions: [], rollout: { variations: [{ variationKey: "a", weight: 50_000 }, { variationKey: "b", weight: 50_000 }] } }] }
  }))
  const experiment = { key: "redesign", flagKey: "checkout", environment: "production", ruleId: "half", controlVariationKey: "off", metrics: METRICS }
  await ok("experiment", request(t.url, "POST", "/v1/projects/p1/experiments", { key, body: experiment }))
  let experimentId = ""
  const start = async () => {
    experimentId = (JSON.parse(await ok("start", request(t.url, "POST", "/v1/projects/p1/experiments/redesign/start", { key }))) as { id: string }).id
    return experimentId
  }
  if (options.start !== false) await start()
  return {
    t,
    get experimentId() {
      return experimentId
    },
    units: () => t.run(Effect.flatMap(ExperimentUnitRepository, (repo) => repo.units(experimentId))),
    start,
    close: () => t.close()
  }
}

/** One POST the SDK made to an ingestion route, with the server's answer (undefined when it never got one). */
export interface Sent {
  readonly path: string
  readonly body: { readonly batchId?: string; readonly exposures?: ReadonlyArray<Record<string, unknown>>; readonly events?: ReadonlyArray<Record<string, unknown>> }
  readonly status: number | undefined
  readonly answer: unknown
}

/**
 * What the wire does with the next posts to `/v1/exposures` and `/v1/track`: `deliver` (the
 * default), `lose-answer` (the server takes the request, the SDK sees a network error), `down`
 * (nothing reaches the server), `hang` (nothing reaches the server, and the request never ends
 * until the SDK aborts it).
 */
export type WireMode = "deliver" | "lose-answer" | "down" | "hang"

export const ingestionWire = () => {
  const sent: Array<Sent> = []
  const modes: Array<WireMode> = []
  let fallback: WireMode = "deliver"
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const path = new URL(String(input)).pathname
    if (path !== "/v1/exposures" && path !== "/v1/track") return globalThis.fetch(input, init)
    const body = JSON.parse(String(init?.body)) as Sent["body"]
    const mode = modes.shift() ?? fallback
    if (mode === "down") {
      sent.push({ path, body, status: undefined, answer: undefined })
      throw new TypeError("fetch failed (the test's network is down)")
    }
    if (mode === "hang") {
      sent.push({ path, body, status: undefined, answer: undefined })
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }))
    }
    const response = await globalThis.fetch(input, init)
    const text = await response.text()
    sent.push({ path, body, status: response.status, answer: text === "" ? undefined : JSON.parse(text) })
    if (mode === "lose-answer") throw new TypeError("fetch failed (the test lost the answer)")
    return new Response(text, { status: response.status, headers: response.headers })
  }
  return {
    fetch,
    sent,
    /** The modes of the next posts, in order; after them, `then`. */
    next: (...next: ReadonlyArray<WireMode>) => modes.push(...next),
    always: (mode: WireMode) => {
      fallback = mode
    }
  }
}
