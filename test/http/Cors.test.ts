/**
 * CORS on the evaluation side only, through a real server: preflights and headers for the
 * configured origins on /v1/evaluate, /v1/flags/{k}/eval, /v1/config, /v1/explain and the OFREP routes (errors included, so a
 * page can read them); management routes answer none.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { ALLOWED_HEADERS, parseOrigins } from "../../adapters/http/shared/Cors.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const ORIGIN = "https://app.example.com"

interface EvaluationRoute {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly body?: unknown
  /** Request headers beyond the key and the origin. */
  readonly headers?: Record<string, string>
  readonly methods: string
}
const EVALUATION: ReadonlyArray<EvaluationRoute> = [
  { name: "POST /v1/evaluate", method: "POST", path: "/v1/evaluate", body: { environment: "development", context: { key: "u" } }, methods: "POST, OPTIONS" },
  { name: "GET /v1/flags/{k}/eval", method: "GET", path: "/v1/flags/cors-flag/eval?environment=development&key=u", methods: "GET, OPTIONS" },
  { name: "GET /v1/config", method: "GET", path: "/v1/config?environment=development", methods: "GET, OPTIONS" },
  { name: "POST /v1/explain", method: "POST", path: "/v1/explain", body: { environment: "development", context: { key: "u" }, flagKey: "cors-flag" }, methods: "POST, OPTIONS" },
  // OFREP
  { name: "POST /ofrep/v1/evaluate/flags", method: "POST", path: "/ofrep/v1/evaluate/flags", body: { context: { targetingKey: "u" } }, headers: { "flagport-environment": "development" }, methods: "POST, OPTIONS" },
  { name: "POST /ofrep/v1/evaluate/flags/{k}", method: "POST", path: "/ofrep/v1/evaluate/flags/cors-flag", body: { context: {} }, headers: { "flagport-environment": "development" }, methods: "POST, OPTIONS" }
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

  it.each(EVALUATION)("$name carries the headers on success and on errors", async ({ body, headers, method, path }) => {
    const ok = await request(t.url, method, path, { key: t.keys.client, headers: { origin: ORIGIN, ...headers }, ...(body === undefined ? {} : { body }) })
    expect(ok.status, ok.text).toBe(200)
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
