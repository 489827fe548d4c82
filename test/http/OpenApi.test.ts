/**
 * GET /openapi.json: generated from the API, equal to the golden docs/openapi.json (regenerate
 * with UPDATE_GOLDEN=1 after a deliberate API change), accepted by a real OpenAPI validator,
 * declaring bearerAuth and every path, with our envelope as the only error schema.
 * GET /docs: an interactive page that needs no network.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"

const GOLDEN = new URL("../../docs/openapi.json", import.meta.url)

let t: TestServer
let spec: Record<string, any>
beforeAll(async () => {
  t = await startServer()
  spec = (await request(t.url, "GET", "/openapi.json")).body as Record<string, any>
  if (process.env["UPDATE_GOLDEN"] === "1") writeFileSync(GOLDEN, JSON.stringify(spec, null, 2) + "\n")
})
afterAll(async () => {
  await t?.close()
})

const PATHS = [
  "/health",
  "/v1/projects",
  "/v1/projects/{projectId}/environments",
  "/v1/projects/{projectId}/flags",
  "/v1/projects/{projectId}/flags/{flagKey}",
  "/v1/projects/{projectId}/flags/{flagKey}/targeting",
  "/v1/projects/{projectId}/segments",
  "/v1/projects/{projectId}/segments/{segmentKey}",
  "/v1/projects/{projectId}/webhooks",
  "/v1/projects/{projectId}/webhooks/{webhookId}",
  "/v1/projects/{projectId}/webhooks/{webhookId}/deliveries",
  "/v1/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
  "/v1/evaluate",
  "/v1/flags/{flagKey}/eval",
  "/v1/config"
]

describe("GET /openapi.json", () => {
  it("equals the golden docs/openapi.json", () => {
    expect(spec).toEqual(JSON.parse(readFileSync(GOLDEN, "utf8")))
  })
  it("is accepted by an OpenAPI validator", async () => {
    const result = await new Validator().validate(spec as never)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
  })
  it("declares the bearerAuth scheme and uses it on every /v1 operation, none on the service endpoints", () => {
    expect(spec.components.securitySchemes).toEqual({ bearerAuth: { type: "http", scheme: "bearer" } })
    for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        expect(operation.security, path).toEqual(path.startsWith("/v1") ? [{ bearerAuth: [] }] : [])
      }
    }
  })
  it("has every path of the specification and the contract", () => {
    expect(Object.keys(spec.paths).sort()).toEqual([...PATHS].sort())
  })
  it("shows our envelope as the only error schema (no built-in decode error)", () => {
    const text = JSON.stringify(spec)
    expect(text).not.toContain("HttpApiDecodeError")
    const badRequest = spec.paths["/v1/projects/{projectId}/flags"].post.responses["400"].content["application/json"].schema
    expect(badRequest).toEqual({ $ref: "#/components/schemas/BadRequest" })
    expect(spec.components.schemas.BadRequest.properties.error.properties.code).toEqual({ type: "string", enum: ["invalid_request"] })
    const statuses = Object.keys(spec.paths["/v1/projects/{projectId}/flags"].post.responses).sort()
    expect(statuses).toEqual(["201", "400", "401", "403", "404", "409", "413", "415", "500"])
    expect(Object.keys(spec.paths["/v1/config"].get.responses)).toContain("304")
    expect(Object.keys(spec.paths["/health"].get.responses)).toContain("503")
  })
})

describe("GET /docs", () => {
  it("is an interactive page with everything inlined (no network needed)", async () => {
    const reply = await request(t.url, "GET", "/docs")
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/html")
    expect(reply.text).toContain("<script")
    expect(reply.text).not.toMatch(/<script[^>]+src=["']https?:/)
    expect(reply.text).not.toMatch(/<link[^>]+href=["']https?:/)
    expect(reply.text.length).toBeGreaterThan(100_000)
  })
})
