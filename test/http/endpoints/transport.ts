/**
 * What every route refuses before its handler: malformed, mistyped, deep or large bodies, unknown
 * routes, and U+0000 anywhere (PostgreSQL cannot store it).
 */
import { describe, expect, it } from "@effect/vitest"
import { type Endpoints, type Reply, flag } from "./harness.js"

export const transportErrors = ({ t, call, request, expectError }: Endpoints) =>
  describe("transport errors", () => {
    it("malformed JSON is 400 on both lanes", async () => {
      expectError("malformedJson.management", await call("POST", "/v1/projects/p1/flags", "{not json"), 400, "invalid_request")
      expectError("malformedJson.evaluate", await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: "{not json" }), 400, "invalid_request")
    })
    it("a body without application/json is 415 on both lanes", async () => {
      const headers = { "content-type": "text/plain" }
      expectError("unsupportedMediaType.management", await call("POST", "/v1/projects/p1/flags", "x", { headers }), 415, "unsupported_media_type")
      expectError("unsupportedMediaType.evaluate", await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: "x", headers }), 415, "unsupported_media_type")
    })
    it("only application/json (with or without parameters) is JSON, on both lanes", async () => {
      for (const type of ["application/jsonx", "application/json-patch+json", "text/plain; x=application/json"]) {
        const headers = { "content-type": type }
        const management = await call("POST", "/v1/projects/p1/flags", flag("typed"), { headers })
        expect(management.status, type).toBe(415)
        const evaluate = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u" } }, headers })
        expect(evaluate.status, type).toBe(415)
      }
      expectError("unsupportedMediaType.jsonLookalike", await call("POST", "/v1/projects/p1/flags", flag("typed"), { headers: { "content-type": "application/jsonx" } }), 415, "unsupported_media_type")
      const headers = { "content-type": "Application/JSON; charset=utf-8" }
      expect((await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u" } }, headers })).status).toBe(200)
    })
    it("JSON nested deeper than 64 levels is 400 on both lanes (it overflowed the stack: 500)", async () => {
      const deep = (depth: number): unknown => {
        let value: unknown = "x"
        for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { v: value }
        return value
      }
      const flagWith = (depth: number) => ({ key: `deep-${depth}`, type: "json", variations: [{ key: "a", value: deep(depth) }] })
      expectError("nestedTooDeeply.management", await call("POST", "/v1/projects/p1/flags", flagWith(3000)), 400, "invalid_request")
      expectError("nestedTooDeeply.management.invalid", await call("POST", "/v1/projects/p1/flags", { ...flagWith(3000), type: "nope" }), 400, "invalid_request")
      const evaluate = (depth: number) => request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u", attributes: { a: deep(depth) } } } })
      expectError("nestedTooDeeply.evaluate", await evaluate(3000), 400, "invalid_request")
      const bad = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: 5, context: deep(3000) } })
      expect(bad.status).toBe(400)
      const attributes = encodeURIComponent(`{"a":${"[".repeat(1000)}${"]".repeat(1000)}}`) // a URL of 6 KB: under node's 16 KB
      expect((await request(t.url, "GET", `/v1/flags/x/eval?environment=development&key=u&attributes=${attributes}`, { key: t.keys.client })).status).toBe(400)
      // Within the limit (the attributes object and the flag body add their own levels).
      expect((await call("POST", "/v1/projects/p1/flags", flagWith(60))).status).toBe(201)
      // An evaluation context has its own, lower nesting limit (checked after the body is parsed).
      expect((await evaluate(8)).status).toBe(200)
      expect((await evaluate(60)).status).toBe(400)
      expect((await call("POST", "/v1/projects/p1/flags", { ...flagWith(60), key: "brackets", variations: [{ key: "a", value: "[[[[{{{{".repeat(100) }] })).status).toBe(201)
    })
    it("a body over 1 MiB is 413 on both lanes", async () => {
      const big = JSON.stringify({ key: "big", type: "string", variations: [{ key: "a", value: "x".repeat(1024 * 1024) }] })
      expectError("payloadTooLarge.management", await call("POST", "/v1/projects/p1/flags", big), 413, "payload_too_large")
      expectError("payloadTooLarge.evaluate", await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: big }), 413, "payload_too_large")
    })
    it("an unknown path is a 404 envelope; a known path with another method a 405 with Allow", async () => {
      expectError("unknownRoute", await call("GET", "/v1/nothing-here"), 404, "not_found")
      const wrongMethod = await call("PUT", "/v1/evaluate", { x: 1 })
      expectError("unknownMethod", wrongMethod, 405, "method_not_allowed")
      expect(wrongMethod.headers.get("allow")).toBe("POST, OPTIONS")
    })
  })

export const nulCharacter = ({ t, call, request, expectError }: Endpoints) =>
  describe("U+0000 (PostgreSQL cannot store it): 400 on every backend, nothing stored", () => {
    const NUL = "\u0000"
    const expectNul = (reply: Reply, path: string) => {
      expect(reply.status, reply.text).toBe(400)
      const details = (reply.body as { error: { details?: Array<{ path: string; message: string }> } }).error.details ?? []
      expect(details, reply.text).toContainEqual({ path, message: "must not contain the NUL character (U+0000)" })
    }
    it("in names, descriptions, webhook URLs and secrets", async () => {
      expectNul(await call("POST", "/v1/projects", { id: "nul", name: `a${NUL}b` }), "name")
      expectNul(await call("POST", "/v1/projects/p1/environments", { key: "nul", name: `a${NUL}` }), "name")
      expectNul(await call("POST", "/v1/projects/p1/flags", flag("nul-flag", { name: `a${NUL}` })), "name")
      expectNul(await call("POST", "/v1/projects/p1/flags", flag("nul-flag", { description: NUL })), "description")
      expectNul(await call("POST", "/v1/projects/p1/segments", { key: "nul-seg", name: `s${NUL}`, conditions: [] }), "name")
      expectNul(await call("POST", "/v1/projects/p1/segments", { key: "nul-seg", name: "s", description: NUL, conditions: [] }), "description")
      expectNul(await call("POST", "/v1/projects/p1/webhooks", { url: `https://example.com/${NUL}`, events: ["flag.created"] }), "url")
      expectNul(await call("POST", "/v1/projects/p1/webhooks", { url: "https://example.com/", events: ["flag.created"], secret: `secret${NUL}secret` }), "secret")
      expectError("nul.name", await call("POST", "/v1/projects/p1/flags", flag("nul-flag", { name: `a${NUL}` })), 400, "invalid_request")
      expect((await call("GET", "/v1/projects/p1/flags/nul-flag")).status).toBe(404)
      expect((await call("GET", "/v1/projects")).text).not.toContain('"nul"')
    })
    it("in path parameters and evaluation requests", async () => {
      expectNul(await call("GET", "/v1/projects/p1/flags/base%00"), "flagKey")
      expectNul(await call("DELETE", "/v1/projects/p1/segments/base%00"), "segmentKey")
      expectNul(await call("GET", "/v1/projects/p%00/flags"), "projectId")
      expectError("nul.path", await call("GET", "/v1/projects/p1/flags/base%00"), 400, "invalid_request")
      expectNul(await request(t.url, "POST", "/v1/evaluate", { key: t.keys.global, body: { environment: `development${NUL}`, projectId: "p1", context: { key: "u" } } }), "environment")
      expectNul(await request(t.url, "POST", "/v1/evaluate", { key: t.keys.global, body: { environment: "development", projectId: `p1${NUL}`, context: { key: "u" } } }), "projectId")
      expectNul(await request(t.url, "GET", "/v1/config?environment=development%00", { key: t.keys.client }), "environment")
      expectNul(await request(t.url, "GET", "/v1/flags/x/eval?environment=development&key=u&projectId=p1%00", { key: t.keys.global }), "projectId")
    })
  })
