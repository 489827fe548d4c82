/**
 * CORS on the evaluation side only, through a real server: preflights and headers for the
 * configured origins on /v1/evaluate, /v1/flags/{k}/eval, /v1/config, a segment's key list
 * (/v1/config/segments/{s}/{list}, which a browser's SDK fetches with its client key), /v1/explain, the OFREP routes and the SDKs'
 * insights reports (POST /v1/insights, answered by the HttpApi app) (errors included, so a page can read them); management
 * routes answer none.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, ManagedRuntime, type Context, Layer } from "effect"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ALLOWED_HEADERS, parseOrigins } from "../../adapters/http/shared/Cors.js"
import { request, seed, startServer, type TestServer } from "./fixtures.js"

const ORIGIN = "https://app.example.com"

interface EvaluationRoute {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly body?: unknown
  /** Request headers beyond the key and the origin. */
  readonly headers?: Record<string, string>
  readonly methods: string
  /** The success status (200 unless said). */
  readonly okStatus?: number
}
const EVALUATION: ReadonlyArray<EvaluationRoute> = [
  { name: "POST /v1/evaluate", method: "POST", path: "/v1/evaluate", body: { environment: "development", context: { key: "u" } }, methods: "POST, OPTIONS" },
  { name: "GET /v1/flags/{k}/eval", method: "GET", path: "/v1/flags/cors-flag/eval?environment=development&key=u", methods: "GET, OPTIONS" },
  { name: "GET /v1/config", method: "GET", path: "/v1/config?environment=development", methods: "GET, OPTIONS" },
  // A segment's key list, as salted hashes: a browser's SDK fetches each list its snapshot names.
  { name: "GET /v1/config/segments/{s}/included", method: "GET", path: "/v1/config/segments/cors-segment/included?environment=development", methods: "GET, OPTIONS" },
  { name: "GET /v1/config/segments/{s}/excluded", method: "GET", path: "/v1/config/segments/cors-segment/excluded?environment=development", methods: "GET, OPTIONS" },
  { name: "POST /v1/explain", method: "POST", path: "/v1/explain", body: { environment: "development", context: { key: "u" }, flagKey: "cors-flag" }, methods: "POST, OPTIONS" },
  // OFREP
  { name: "POST /ofrep/v1/evaluate/flags", method: "POST", path: "/ofrep/v1/evaluate/flags", body: { context: { targetingKey: "u" } }, headers: { "flagport-environment": "development" }, methods: "POST, OPTIONS" },
  { name: "POST /ofrep/v1/evaluate/flags/{k}", method: "POST", path: "/ofrep/v1/evaluate/flags/cors-flag", body: { context: {} }, headers: { "flagport-environment": "development" }, methods: "POST, OPTIONS" },
  // Browser SDKs report what they evaluated.
  {
    name: "POST /v1/insights",
    method: "POST",
    path: "/v1/insights",
    get body() {
      const to = new Date()
      return { environment: "development", from: new Date(to.getTime() - 60_000).toISOString(), to: to.toISOString(), counts: [{ flagKey: "cors-flag", variationKey: "on", count: 1 }] }
    },
    methods: "POST, OPTIONS",
    okStatus: 202
  }
]

const corsHeaders = (headers: Headers) =>
  {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (name.startsWith("access-control-")) out[name] = value
  })
  return out
}

const flagBody = { key: "cors-flag", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }

describe("CORS with the default origins (*)", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startServer()
    await request(t.url, "POST", "/v1/projects/p1/flags", { key: t.keys.global, body: flagBody })
    const segment = await request(t.url, "POST", "/v1/projects/p1/segments", { key: t.keys.global, body: { key: "cors-segment", name: "CORS", conditions: [] } })
    expect(segment.status, segment.text).toBe(201)
    for (const list of ["included", "excluded"]) {
      const put = await request(t.url, "PUT", `/v1/projects/p1/segments/cors-segment/keys/${list}`, { key: t.keys.global, body: "a\nb\n", headers: { "content-type": "text/plain" } })
      expect(put.status, put.text).toBe(200)
      // The server serves a list once it has loaded it (in the background).
      const path = `/v1/config/segments/cors-segment/${list}?environment=development`
      for (let i = 0; (await request(t.url, "GET", path, { key: t.keys.client })).status !== 200; i++) {
        if (i > 500) throw new Error(`the ${list} list was never served`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
  })
  afterAll(() => t?.close())

  it.each(EVALUATION)("$name answers its preflight without credentials", async ({ methods, path }) => {
    const reply = await request(t.url, "OPTIONS", path, {
      headers: { origin: ORIGIN, "access-control-request-method": "GET", "access-control-request-headers": "authorization" }
    })
    expect(reply.status).toBe(204)
    expect(corsHeaders(reply.headers)).toEqual({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": methods,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-expose-headers": "ETag",
      "access-control-max-age": "600"
    })
  })

  it.each(EVALUATION)("$name carries the headers on success and on errors", async ({ body, headers, method, okStatus, path }) => {
    const ok = await request(t.url, method, path, { key: t.keys.client, headers: { origin: ORIGIN, ...headers }, ...(body === undefined ? {} : { body }) })
    expect(ok.status, ok.text).toBe(okStatus ?? 200)
    expect(corsHeaders(ok.headers)).toEqual({ "access-control-allow-origin": "*", "access-control-expose-headers": "ETag" })
    const refused = await request(t.url, method, path, { headers: { origin: ORIGIN, ...headers }, ...(body === undefined ? {} : { body }) })
    expect(refused.status).toBe(401)
    expect(corsHeaders(refused.headers)).toEqual({ "access-control-allow-origin": "*", "access-control-expose-headers": "ETag" })
  })

  it("management routes send no CORS headers, preflight or not", async () => {
    for (const path of ["/v1/projects", "/v1/projects/p1/flags", "/openapi.json", "/health"]) {
      const reply = await request(t.url, "GET", path, { key: t.keys.global, headers: { origin: ORIGIN } })
      expect(reply.status, path).toBe(200)
      expect(corsHeaders(reply.headers), path).toEqual({})
      const preflight = await request(t.url, "OPTIONS", path, { headers: { origin: ORIGIN, "access-control-request-method": "GET" } })
      expect(preflight.status, path).not.toBe(204)
      expect(corsHeaders(preflight.headers), path).toEqual({})
    }
  })
})

describe("CORS with a list of origins", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startServer(undefined, { lane: { corsOrigins: Either.getOrThrow(parseOrigins(`${ORIGIN}/, https://other.example.com:8443`)) } })
  })
  afterAll(() => t?.close())

  it("an allowed origin is echoed, and the answer varies by Origin", async () => {
    const reply = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.client, headers: { origin: ORIGIN } })
    expect(corsHeaders(reply.headers)).toEqual({ "access-control-allow-origin": ORIGIN, "access-control-expose-headers": "ETag" })
    expect(reply.headers.get("vary")).toBe("Accept-Encoding, Origin")
    const preflight = await request(t.url, "OPTIONS", "/v1/evaluate", { headers: { origin: "https://other.example.com:8443" } })
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://other.example.com:8443")
    expect(preflight.headers.get("vary")).toBe("Origin")
    const report = await request(t.url, "POST", "/v1/insights", { key: t.keys.client, headers: { origin: ORIGIN }, body: EVALUATION.find((r) => r.path === "/v1/insights")!.body })
    expect(report.status, report.text).toBe(202)
    expect(corsHeaders(report.headers)).toEqual({ "access-control-allow-origin": ORIGIN, "access-control-expose-headers": "ETag" })
    expect(report.headers.get("vary")).toContain("Origin")
    const other = await request(t.url, "POST", "/v1/insights", { key: t.keys.client, headers: { origin: "https://evil.example.com" }, body: { environment: "nope" } })
    expect(corsHeaders(other.headers)).toEqual({})
  })

  it("another origin gets no CORS headers (the browser refuses), the request itself is unchanged", async () => {
    const reply = await request(t.url, "GET", "/v1/config?environment=development", { key: t.keys.client, headers: { origin: "https://evil.example.com" } })
    expect(reply.status).toBe(200)
    expect(corsHeaders(reply.headers)).toEqual({})
    const preflight = await request(t.url, "OPTIONS", "/v1/evaluate", { headers: { origin: "https://evil.example.com" } })
    expect(preflight.status).toBe(204)
    expect(corsHeaders(preflight.headers)).toEqual({})
  })
})

describe("CORS through the web handler of a mounted app", () => {
  it("POST /v1/insights, answered by the HttpApi app, carries the headers too", async () => {
    const storage = ManagedRuntime.make(StorageLayer.memoryStorage)
    const context: Context.Context<StorageLayer.Storage> = await storage.runPromise(Effect.context<StorageLayer.Storage>())
    const keys = await storage.runPromise(seed)
    const flagport = await makeHandlers({
      prefix: "/flags",
      services: App.servicesFrom(Layer.succeedContext(context)),
      lane: { corsOrigins: Either.getOrThrow(parseOrigins(ORIGIN)) }
    })
    try {
      const answer = await flagport.web(
        new Request("http://host.example/flags/v1/insights", {
          method: "POST",
          headers: { authorization: `Bearer ${keys.client}`, "content-type": "application/json", origin: ORIGIN },
          body: JSON.stringify({ environment: "nope" })
        })
      )
      expect(answer.headers.get("access-control-allow-origin")).toBe(ORIGIN)
      expect(answer.headers.get("vary")).toContain("Origin")
    } finally {
      await flagport.dispose()
      await storage.dispose()
    }
  })
})

describe("FLAGPORT_CORS_ORIGINS parsing", () => {
  it.each([
    ["", "*"],
    ["*", "*"],
    ["https://a.example.com, *", "*"],
    ["https://A.example.com/ , http://localhost:3000", ["https://a.example.com", "http://localhost:3000"]]
  ] as const)("%j", (raw, expected) => {
    const parsed = Either.getOrThrow(parseOrigins(raw))
    expect(parsed === "*" ? "*" : [...parsed]).toEqual(expected)
  })
  it("refuses what is not an origin, naming it", () => {
    expect(parseOrigins("https://a.example.com/app")).toEqual(Either.left(`"https://a.example.com/app" is not an origin (expected scheme://host[:port], or *)`))
    expect(Either.isLeft(parseOrigins("a.example.com"))).toBe(true)
  })
})
