/**
 * The edges of the route table, through a real server (issue 25, item 7):
 * - a known path asked with a method it does not answer is a 405 with `Allow` (not the 404 of an
 *   unknown path), for every path of the OpenAPI document, lane routes and HttpApi routes alike,
 *   standalone and mounted under a prefix;
 * - `GET /v1/flags/{flagKey}/eval` refuses a parameter it does not take (`country=DE` would
 *   otherwise be ignored and the flag served without it), saying where attributes go.
 */
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers, type FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { request, seed, startServer, type TestServer } from "./fixtures.js"

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const
/** The paths browsers call, which answer CORS preflights (`OPTIONS`). */
const CORS = /^\/(v1\/(evaluate|explain|config|stream|insights|flags\/\{flagKey\}\/eval)|ofrep\/)/

let t: TestServer
let spec: { paths: Record<string, Record<string, unknown>> }
beforeAll(async () => {
  t = await startServer()
  spec = (await request(t.url, "GET", "/openapi.json")).body as typeof spec
  const created = await request(t.url, "POST", "/v1/projects/p1/flags", {
    key: t.keys.scoped,
    body: { key: "dark-mode", name: "Dark mode", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }
  })
  expect(created.status).toBe(201)
})
afterAll(async () => {
  await t?.close()
})

/** A concrete path for a template: every `{param}` becomes `x`, but a key list's `{list}` (one of two names) `included`. */
const concrete = (template: string) => template.replace("{list}", "included").replace(/\{[^}]+\}/g, "x")

/** What `Allow` must say for a path of the document. */
const allowOf = (template: string): string => {
  const declared = Object.keys(spec.paths[template]!).map((m) => m.toUpperCase())
  const methods = new Set(declared)
  if (methods.has("GET")) methods.add("HEAD")
  if (CORS.test(template)) methods.add("OPTIONS")
  return ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => methods.has(m)).join(", ")
}

describe("a known path with a method it does not answer", () => {
  it("is 405 with Allow, on every path of the document", async () => {
    const seen: Array<string> = []
    for (const template of Object.keys(spec.paths)) {
      const declared = Object.keys(spec.paths[template]!).map((m) => m.toUpperCase())
      for (const method of METHODS.filter((m) => !declared.includes(m))) {
        const path = concrete(template)
        const reply = await request(t.url, method, path, { key: t.keys.global })
        expect(reply.status, `${method} ${path}`).toBe(405)
        expect(reply.headers.get("allow"), `${method} ${path}`).toBe(allowOf(template))
        expect(reply.body).toEqual({
          error: { code: "method_not_allowed", message: `${method} is not allowed on ${path}; it answers ${allowOf(template)}.` }
        })
        seen.push(`${method} ${template}`)
      }
    }
    // The case, and a management route.
    expect(seen).toContain("DELETE /v1/evaluate")
    expect(seen).toContain("PUT /v1/projects/{projectId}/flags")
  })

  it("is 405 on the document routes too; an unknown path stays 404", async () => {
    const docs = await request(t.url, "POST", "/docs")
    expect(docs.status).toBe(405)
    expect(docs.headers.get("allow")).toBe("GET, HEAD")
    const unknown = await request(t.url, "DELETE", "/v1/nothing-here")
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("allow")).toBeNull()
  })

  it("is 405 when mounted under a prefix (web handler)", async () => {
    const storage = ManagedRuntime.make(StorageLayer.memoryStorage)
    let flagport: FlagportHandlers | undefined
    try {
      const context: Context.Context<StorageLayer.Storage> = await storage.runPromise(Effect.context<StorageLayer.Storage>())
      await storage.runPromise(seed)
      flagport = await makeHandlers({ prefix: "/flags", services: App.servicesFrom(Layer.succeedContext(context)) })
      const reply = await flagport.web(new Request("http://host.example/flags/v1/evaluate", { method: "DELETE" }))
      expect(reply.status).toBe(405)
      expect(reply.headers.get("allow")).toBe("POST, OPTIONS")
    } finally {
      await flagport?.dispose()
      await storage.dispose()
    }
  })
})

describe("GET /v1/flags/{flagKey}/eval", () => {
  const evalPath = (query: string) => `/v1/flags/dark-mode/eval?environment=production&key=user-1${query}`

  it("refuses a parameter it does not take, saying attributes go in attributes=<JSON>", async () => {
    const reply = await request(t.url, "GET", evalPath("&country=DE"), { key: t.keys.client })
    expect(reply.status).toBe(400)
    const example = encodeURIComponent(JSON.stringify({ country: "DE" }))
    expect(reply.body).toEqual({
      error: {
        code: "invalid_request",
        message: "The request is invalid.",
        details: [
          {
            path: "country",
            message: `is not a parameter of this route (it takes environment, key, attributes, projectId); context attributes go in one parameter as URL-encoded JSON, e.g. attributes=${example} for {"country":"DE"}`
          }
        ]
      }
    })
  })

  it("still answers with the attributes where they belong", async () => {
    const attributes = encodeURIComponent(JSON.stringify({ country: "DE" }))
    const reply = await request(t.url, "GET", evalPath(`&attributes=${attributes}`), { key: t.keys.client })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ flagKey: "dark-mode", variationKey: "off" })
  })
})
