/**
 * A chunked body (no Content-Length) over 1 MiB gets 413 `payload_too_large` in the envelope on a
 * management route, as on the evaluation routes, through the standalone server, and nothing is
 * stored (issue 26, item 10). Before, the management route answered with a TCP reset.
 */
import * as Http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"

let t: TestServer
beforeAll(async () => {
  t = await startServer()
})
afterAll(() => t?.close())

/** POSTs `total` bytes of a JSON string as chunks of 64 KiB, without Content-Length. */
const chunked = (path: string, key: string, total: number) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = Http.request(`${t.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "transfer-encoding": "chunked" }
    })
    req.on("response", (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    let sent = 0
    const pump = () => {
      while (sent < total) {
        const chunk = sent === 0 ? '{"key":"big","name":"' : "x".repeat(Math.min(65536, total - sent))
        sent += chunk.length
        if (!req.write(chunk)) return void req.once("drain", pump)
      }
      req.end('"}')
    }
    pump()
  })

describe("a chunked body over 1 MiB", () => {
  it.each([
    ["a management route", "/v1/projects/p1/flags", "global"],
    ["an evaluation route", "/v1/evaluate", "client"]
  ] as const)("on %s is 413 in the envelope", async (_, path, key) => {
    const reply = await chunked(path, t.keys[key], 2 * 1024 * 1024)
    expect(reply.status).toBe(413)
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: "payload_too_large" } })
    const flags = await request(t.url, "GET", "/v1/projects/p1/flags", { key: t.keys.global })
    expect((flags.body as { data: Array<{ key: string }> }).data.map((f) => f.key)).not.toContain("big")
  })

  it("a small chunked body on a management route still goes through", async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      const req = Http.request(`${t.url}/v1/projects/p1/flags`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.keys.global}`, "content-type": "application/json", "transfer-encoding": "chunked" }
      })
      req.on("response", (res) => (res.resume(), resolve(res.statusCode ?? 0)))
      req.on("error", reject)
      req.write('{"key":"chunked","name":"Chunked",')
      req.end('"type":"boolean","variations":[{"key":"on","value":true},{"key":"off","value":false}]}')
    })
    expect(reply).toBe(201)
  })
})
