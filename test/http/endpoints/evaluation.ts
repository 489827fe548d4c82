/** The evaluation routes (`/v1/evaluate`, the single flag, `/v1/config`) and `/v1/stream`'s refusals. */
import { request as httpRequest } from "node:http"
import { gunzipSync } from "node:zlib"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Endpoints, flag } from "./harness.js"

/** A GET through node:http, which neither asks for nor undoes a content encoding by itself (fetch does both). */
const rawGet = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on("error", reject)
    req.end()
  })

export const evaluation = ({ t, call, request, expectError }: Endpoints) =>
  describe("evaluation", () => {
    beforeAll(async () => {
      await call("POST", "/v1/projects/p1/flags", flag("eval-flag"))
      await call("POST", "/v1/projects/p1/flags", { key: "eval-bool", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
      await call("PUT", "/v1/projects/p1/flags/eval-flag/targeting", {
        environment: "development",
        enabled: true,
        defaultVariationKey: "C",
        offVariationKey: "C",
        rules: [
          { id: "by-plan", conditions: [{ attribute: "plan", operator: "in", values: ["pro"] }, { attribute: "seats", operator: "gte", values: [10] }], variationKey: "A" }
        ]
      })
    })
    const client = () => ({ key: t.keys.client })

    it("POST /v1/evaluate answers every flag of the environment", async () => {
      const reply = await request(t.url, "POST", "/v1/evaluate", {
        ...client(),
        body: { environment: "development", context: { key: "u1", attributes: { plan: "pro", seats: 12, country: "US", beta: true } } }
      })
      expect(reply.status).toBe(200)
      const body = reply.body as { environment: string; flags: Record<string, unknown> }
      expect(body.environment).toBe("development")
      expect(body.flags["eval-flag"]).toEqual({ flagKey: "eval-flag", value: "a", variationKey: "A", reason: { kind: "RULE_MATCH", ruleId: "by-plan", ruleIndex: 0 } })
      expect(body.flags["eval-bool"]).toEqual({ flagKey: "eval-bool", value: false, variationKey: "off", reason: { kind: "OFF" } })
    })
    it("POST /v1/evaluate: 404 unknown environment, 400 empty context key, 400 unknown field", async () => {
      expectError("evaluate.unknownEnvironment", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "nowhere", context: { key: "u" } } }), 404, "not_found")
      const empty = expectError("evaluate.emptyKey", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "development", context: { key: "" } } }), 400, "invalid_request") as unknown as { error: { details: Array<{ path: string }> } }
      expect(empty.error.details.map((d) => d.path)).toEqual(["context.key"])
      expectError("evaluate.missingContext", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "development" } }), 400, "invalid_request")
      expectError("evaluate.unknownField", await request(t.url, "POST", "/v1/evaluate", { ...client(), body: { environment: "development", context: { key: "u" }, extra: 1 } }), 400, "invalid_request")
    })
    it("GET /v1/flags/{flagKey}/eval with typed attributes as URL-encoded JSON", async () => {
      const attributes = encodeURIComponent(JSON.stringify({ plan: "pro", seats: 10 }))
      const reply = await request(t.url, "GET", `/v1/flags/eval-flag/eval?environment=development&key=u1&attributes=${attributes}`, client())
      expect(reply.body).toEqual({ flagKey: "eval-flag", value: "a", variationKey: "A", reason: { kind: "RULE_MATCH", ruleId: "by-plan", ruleIndex: 0 } })
      const stringly = encodeURIComponent(JSON.stringify({ plan: "pro", seats: "10" }))
      const fallthrough = await request(t.url, "GET", `/v1/flags/eval-flag/eval?environment=development&key=u1&attributes=${stringly}`, client())
      expect(fallthrough.body).toEqual({ flagKey: "eval-flag", value: "c", variationKey: "C", reason: { kind: "FALLTHROUGH" } })
    })
    it("GET /v1/flags/{flagKey}/eval: 404 unknown flag, 400 missing key / bad attributes", async () => {
      expectError("flagEval.unknownFlag", await request(t.url, "GET", "/v1/flags/nope/eval?environment=development&key=u", client()), 404, "not_found")
      expectError("flagEval.missingKey", await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=development", client()), 400, "invalid_request")
      expectError("flagEval.badAttributes", await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=development&key=u&attributes=%7Bnope", client()), 400, "invalid_request")
      expectError("flagEval.unknownEnvironment", await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=nowhere&key=u", client()), 404, "not_found")
      // A repeated parameter is refused, as on the HttpApi routes, instead of one value winning.
      const repeated = expectError(
        "flagEval.repeatedParameter",
        await request(t.url, "GET", "/v1/flags/eval-flag/eval?environment=development&environment=production&key=u", client()),
        400,
        "invalid_request"
      ) as unknown as { error: { details: Array<{ path: string }> } }
      expect(repeated.error.details.map((d) => d.path)).toContain("environment")
      // Parameters named like Object.prototype members are ordinary parameters: ignored by
      // /v1/config, refused by name by the single-flag route (which takes no unknown parameter).
      for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
        const config = await request(t.url, "GET", `/v1/config?environment=development&${name}=1&${name}=2`, client())
        expect(config.status, config.text).toBe(200)
        const evaluated = await request(t.url, "GET", `/v1/flags/eval-flag/eval?environment=development&key=u&${name}=x`, client())
        expect(evaluated.status, evaluated.text).toBe(400)
        expect((evaluated.body as { error: { details: Array<{ path: string }> } }).error.details.map((d) => d.path)).toEqual([name])
      }
      expectError("config.repeatedParameter", await request(t.url, "GET", "/v1/config?environment=development&environment=development", client()), 400, "invalid_request")
    })
    it("GET /v1/config: the snapshot with an ETag; 304 on If-None-Match; gzip when accepted", async () => {
      const first = await request(t.url, "GET", "/v1/config?environment=development", client())
      expect(first.status).toBe(200)
      const etag = first.headers.get("etag")!
      expect(etag).toMatch(/^W\/".+"$/)
      const body = first.body as { environment: string; flags: Array<{ key: string }>; segments: unknown[] }
      expect(body.environment).toBe("development")
      expect(body.flags.map((f) => f.key)).toEqual(expect.arrayContaining(["eval-flag", "eval-bool"]))
      const again = await request(t.url, "GET", "/v1/config?environment=development", { ...client(), headers: { "if-none-match": etag } })
      expect(again.status).toBe(304)
      expect(again.text).toBe("")
      const gz = await rawGet(`${t.url}/v1/config?environment=development`, { authorization: `Bearer ${t.keys.client}`, "accept-encoding": "gzip" })
      expect(gz.headers["content-encoding"]).toBe("gzip")
      expect(JSON.parse(gunzipSync(gz.body).toString("utf8"))).toEqual(body)
      // Each flag carries the version its environment serves. A metadata-only change (a rename)
      // grows the flag's version but changes nothing served: the snapshot and its ETag stay as
      // they were. A targeting change serves the flag's new version.
      const versionOf = (config: unknown) => (config as { flags: Array<{ key: string; version: number }> }).flags.find((f) => f.key === "eval-bool")!.version
      const renamed = await call("PATCH", "/v1/projects/p1/flags/eval-bool", { name: "Changed" })
      expect(renamed.status).toBe(200)
      const flagVersion = (renamed.body as { version: number }).version
      const afterRename = await request(t.url, "GET", "/v1/config?environment=development", { ...client(), headers: { "if-none-match": etag } })
      expect(afterRename.status).toBe(304)
      expect((await request(t.url, "GET", "/v1/config?environment=development", client())).body).toEqual(body)
      expect(versionOf(body)).toBeLessThan(flagVersion)
      await call("PUT", "/v1/projects/p1/flags/eval-bool/targeting", { environment: "development", enabled: false, defaultVariationKey: "off", offVariationKey: "off", rules: [] })
      const changed = await request(t.url, "GET", "/v1/config?environment=development", { ...client(), headers: { "if-none-match": etag } })
      expect(changed.status).toBe(200)
      expect(changed.headers.get("etag")).not.toBe(etag)
      expect(versionOf(changed.body)).toBe(flagVersion + 1)
    })
    it("a write is served by the next evaluation of this process", async () => {
      await call("PUT", "/v1/projects/p1/flags/eval-bool/targeting", { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
      const reply = await request(t.url, "GET", "/v1/flags/eval-bool/eval?environment=development&key=u", client())
      expect(reply.body).toMatchObject({ value: true, reason: { kind: "FALLTHROUGH" } })
    })
  })

export const streams = ({ t, request, expectError }: Endpoints) =>
  describe("streams", () => {
    it("GET /v1/stream answers the envelope when it does not open (a stream that opens never ends: see Stream.test.ts)", async () => {
      const stream = (query: string, key?: string) => request(t.url, "GET", `/v1/stream${query}`, key === undefined ? {} : { key })
      expectError("stream.noCredentials", await stream("?environment=development"), 401, "unauthorized")
      expectError("stream.invalidToken", await stream("?token=v1.forged.token"), 401, "unauthorized")
      expectError("stream.missingEnvironment", await stream("", t.keys.client), 400, "invalid_request")
      expectError("stream.unknownEnvironment", await stream("?environment=staging", t.keys.client), 404, "not_found")
      expectError("stream.otherEnvironment", await stream("?environment=development", t.keys.boundClientOther), 403, "forbidden")
    })
  })
