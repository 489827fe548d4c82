/**
 * How the standalone server serves the dashboard, over plain HTTP (no browser): at /ui/ with a
 * strict Content-Security-Policy and no inline script or style, `/` and `/ui` redirected there,
 * assets revalidated by ETag, and API answers carrying only the framing rule.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, startServer, type TestServer } from "../http/fixtures.js"

let server: TestServer

beforeAll(async () => {
  server = await startServer()
}, 60_000)

afterAll(async () => {
  await server?.close()
})

describe("serving", () => {
  it("serves the dashboard at /ui/ with a strict Content-Security-Policy, redirects / and /ui there, and gives API answers only the framing rule", async () => {
    const root = await fetch(`${server.url}/`, { redirect: "manual" })
    expect(root.status).toBe(302)
    expect(root.headers.get("location")).toBe("/ui/")
    const bare = await fetch(`${server.url}/ui`, { redirect: "manual" })
    expect(bare.headers.get("location")).toBe("/ui/")
    for (const path of ["/ui/", "/ui/app.js", "/ui/app.css", "/ui/settings.json", "/ui/nothing-here"]) {
      const reply = await fetch(`${server.url}${path}`)
      const csp = reply.headers.get("content-security-policy") ?? ""
      expect(csp, path).toContain("script-src 'self'")
      expect(csp, path).not.toMatch(/unsafe-inline|unsafe-eval/)
      expect(reply.headers.get("x-content-type-options"), path).toBe("nosniff")
    }
    const page = await fetch(`${server.url}/ui/`)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await page.text()
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]|<style|style=/)
    const again = await fetch(`${server.url}/ui/app.js`, { headers: { "if-none-match": page.headers.get("etag") ?? "" } })
    expect(again.status).toBe(200)
    const js = await fetch(`${server.url}/ui/app.js`)
    expect((await fetch(`${server.url}/ui/app.js`, { headers: { "if-none-match": js.headers.get("etag")! } })).status).toBe(304)
    const api = await request(server.url, "GET", "/v1/projects", { key: server.keys.global })
    expect(api.status).toBe(200)
    // An API answer carries only the framing rule every answer has, not the dashboard's policy.
    expect(api.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
    const post = await request(server.url, "POST", "/ui/", { body: {} })
    expect(post.status).toBe(404)
    expect((post.body as { error: { code: string } }).error.code).toBe("not_found")
  })
})
