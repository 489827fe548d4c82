/**
 * Every answer carries `nosniff` and refuses framing (issue 26, item 9), whichever part of
 * Flagport made it: the evaluation lane, the HttpApi routes (success and error), the change
 * stream, the dashboard, /docs (with a policy of its own) and node's parser errors; on the
 * standalone server and through the web handler.
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { DOCS_CONTENT_SECURITY_POLICY } from "../../adapters/http/serving/Docs.js"
import { request, startServer, type TestServer } from "./fixtures.js"

let t: TestServer
beforeAll(async () => {
  t = await startServer()
})
afterAll(async () => {
  await t?.close()
})

const expectGuarded = (headers: Headers, what: string) => {
  expect(headers.get("x-content-type-options"), what).toBe("nosniff")
  expect(headers.get("x-frame-options"), what).toBe("DENY")
  expect(headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'")
}

describe("security headers on the standalone server", () => {
  it("on the lane's answers, success and failure", async () => {
    const ok = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u" } } })
    expect(ok.status).toBe(200)
    expectGuarded(ok.headers, "POST /v1/evaluate")
    const refused = await request(t.url, "GET", "/v1/config?environment=development")
    expect(refused.status).toBe(401)
    expectGuarded(refused.headers, "GET /v1/config without a key")
    const config = await fetch(`${t.url}/v1/config?environment=development`, {
      headers: { authorization: `Bearer ${t.keys.client}`, "accept-encoding": "gzip" }
    })
    expectGuarded(config.headers, "GET /v1/config gzipped")
  })

  it("on the HttpApi routes, success, refusal and unknown paths", async () => {
    const projects = await request(t.url, "GET", "/v1/projects", { key: t.keys.global })
    expect(projects.status).toBe(200)
    expectGuarded(projects.headers, "GET /v1/projects")
    expectGuarded((await request(t.url, "GET", "/v1/projects")).headers, "401 on a management route")
    expectGuarded((await request(t.url, "GET", "/nowhere")).headers, "404")
    const wrongMethod = await request(t.url, "DELETE", "/v1/evaluate", { key: t.keys.client })
    expect(wrongMethod.status).toBe(405)
    expectGuarded(wrongMethod.headers, "405")
    expectGuarded((await request(t.url, "GET", "/health")).headers, "GET /health")
    expectGuarded((await request(t.url, "GET", "/openapi.json")).headers, "GET /openapi.json")
    const malformed = await request(t.url, "POST", "/v1/projects", { key: t.keys.global, body: "{" })
    expect(malformed.status).toBe(400)
    expectGuarded(malformed.headers, "malformed JSON")
  })

  it("on the change stream", async () => {
    const controller = new AbortController()
    const stream = await fetch(`${t.url}/v1/stream?environment=development`, {
      headers: { authorization: `Bearer ${t.keys.client}` },
      signal: controller.signal
    })
    expect(stream.status).toBe(200)
    expectGuarded(stream.headers, "GET /v1/stream")
    controller.abort()
  })

  it("on the dashboard and its redirects", async () => {
    expectGuarded((await fetch(`${t.url}/`, { redirect: "manual" })).headers, "GET /")
    expectGuarded((await fetch(`${t.url}/ui/`)).headers, "GET /ui/")
  })

  it("on /docs, with a policy that allows scripts from this origin only", async () => {
    const docs = await fetch(`${t.url}/docs`)
    expect(docs.status).toBe(200)
    expectGuarded(docs.headers, "GET /docs")
    expect(docs.headers.get("content-security-policy")).toBe(DOCS_CONTENT_SECURITY_POLICY)
    expect(DOCS_CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval';")
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*'unsafe-(eval|inline)'/)
    const page = await docs.text()
    // No inline script: the only executable script is loaded from this origin.
    expect(page.match(/<script(?![^>]*type="application\/json")[^>]*>/g)).toEqual(['<script src="/docs/scalar.js">'])
    const script = await fetch(`${t.url}/docs/scalar.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expectGuarded(script.headers, "GET /docs/scalar.js")
  })

  it("on an answer to a request node's parser refuses", async () => {
    const { port } = new URL(t.url)
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.write("GET /health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"))
      let received = ""
      socket.on("data", (chunk) => (received += chunk.toString()))
      socket.on("end", () => resolve(received))
      socket.on("error", reject)
    })
    expect(raw).toMatch(/^HTTP\/1.1 400/)
    expect(raw.toLowerCase()).toContain("x-content-type-options: nosniff")
    expect(raw.toLowerCase()).toContain("x-frame-options: deny")
  })
})

describe("security headers from the web handler", () => {
  it("on lane, HttpApi and dashboard answers", async () => {
    const web = t.server.handlers.web
    const auth = { authorization: `Bearer ${t.keys.client}` }
    expectGuarded((await web(new Request("http://h.example/v1/config?environment=development", { headers: auth }))).headers, "lane")
    expectGuarded((await web(new Request("http://h.example/v1/projects"))).headers, "HttpApi 401")
    expectGuarded((await web(new Request("http://h.example/health"))).headers, "HttpApi 200")
    expectGuarded((await web(new Request("http://h.example/ui/"))).headers, "dashboard")
  })
})
