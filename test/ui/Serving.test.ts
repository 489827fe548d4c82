/**
 * Serving the dashboard from the mounted handlers: under the host's prefix for the node handler
 * (prefix in the URL or already stripped) and the web handler, with its headers, the setting of
 * production-like environments, `<prefix>/` leading to the dashboard (the host keeps its own `/`),
 * and `dashboard: false`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CONTENT_SECURITY_POLICY } from "../../adapters/http/serving/Dashboard.js"
import type { FlagportHandlers } from "../../adapters/http/serving/Embed.js"
import { request, type Keys } from "../http/fixtures.js"
import { type Host, startHost } from "../http/host.js"

let host: Host
let flagport: FlagportHandlers
let without: FlagportHandlers
let base: string
let keys: Keys

beforeAll(async () => {
  host = await startHost()
  keys = host.keys
  flagport = await host.mount({ prefix: "/flags", dashboard: { confirmEnvironments: ["live", "production"] } })
  without = await host.mount({ prefix: "/flags", dashboard: false })
  base = await host.listen((req, res) => {
    if (req.url?.startsWith("/flags")) return flagport.node(req, res)
    if (req.url?.startsWith("/stripped/")) {
      req.url = req.url.slice("/stripped".length)
      return flagport.node(req, res)
    }
    if (req.url?.startsWith("/bare")) return without.node(req, res)
    res.writeHead(200, { "content-type": "text/plain" }).end("host")
  })
}, 60_000)

afterAll(async () => {
  await host?.close()
})

describe("the dashboard under a host's prefix", () => {
  it("serves the page and its assets with the security headers, from the node handler", async () => {
    const page = await fetch(`${base}/flags/ui/`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(page.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY)
    expect(page.headers.get("x-frame-options")).toBe("DENY")
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
    // relative asset URLs, so the page works under any prefix
    expect(await page.text()).toContain('<script type="module" src="app.js">')
    const js = await fetch(`${base}/flags/ui/app.js`)
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect((await js.text()).length).toBeGreaterThan(1000)
    const head = await fetch(`${base}/flags/ui/app.css`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe("")
    expect(await (await fetch(`${base}/stripped/ui/settings.json`)).json()).toEqual({ confirmEnvironments: ["live", "production"] })
  })

  it("redirects the prefix's /ui to /ui/ and leaves the host's / to the host", async () => {
    const bare = await fetch(`${base}/flags/ui`, { redirect: "manual" })
    expect(bare.status).toBe(302)
    expect(bare.headers.get("location")).toBe("/flags/ui/")
    expect(bare.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY)
    expect(await (await fetch(`${base}/`)).text()).toBe("host")
    // The prefix itself is Flagport's: it leads to the dashboard, as `/` does standalone.
    for (const path of ["/flags/", "/flags", "/stripped/"]) {
      const root = await fetch(`${base}${path}`, { redirect: "manual" })
      expect(root.status, path).toBe(302)
      expect(root.headers.get("location"), path).toBe("/flags/ui/")
    }
  })

  it("answers the setup link's and single sign-on's return paths with the page (their assets resolve under /ui/)", async () => {
    for (const path of ["/flags/ui/setup", "/flags/ui/signin?error=nope"]) {
      const page = await fetch(`${base}${path}`)
      expect(page.status, path).toBe(200)
      expect(page.headers.get("content-type"), path).toBe("text/html; charset=utf-8")
      expect(page.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY)
      expect(await page.text(), path).toContain('<script type="module" src="app.js">')
    }
    expect((await fetch(`${base}/flags/ui/setup/app.js`)).status).toBe(404)
  })

  it("answers an unknown asset 404 with the headers, and leaves other methods and the API to the API", async () => {
    // only the built files are served: a name is looked up, never joined to a directory
    expect((await fetch(`${base}/flags/ui/build.mjs`)).status).toBe(404)
    expect((await fetch(`${base}/flags/ui/main.tsx`)).status).toBe(404)
    const unknown = await fetch(`${base}/flags/ui/nothing.js`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY)
    const post = await request(base, "POST", "/flags/ui/", { body: {} })
    expect(post.status).toBe(404)
    expect((post.body as { error: { code: string } }).error.code).toBe("not_found")
    const api = await request(base, "GET", "/flags/v1/projects", { key: keys.global })
    expect(api.status).toBe(200)
    // the API's answers keep their own (framing-only) policy, not the dashboard's
    expect(api.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
  })

  it("serves the same from the web handler", async () => {
    const page = await flagport.web(new Request("http://host.test/flags/ui/"))
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY)
    const js = await flagport.web(new Request("http://host.test/flags/ui/app.js"))
    const again = await flagport.web(new Request("http://host.test/flags/ui/app.js", { headers: { "if-none-match": js.headers.get("etag")! } }))
    expect(again.status).toBe(304)
    const api = await flagport.web(new Request("http://host.test/flags/v1/projects", { headers: { authorization: `Bearer ${keys.global}` } }))
    expect(api.status).toBe(200)
    // the API's answers keep their own (framing-only) policy, not the dashboard's
    expect(api.headers.get("content-security-policy")).toBe("frame-ancestors 'none'")
  })

  it("is left out with dashboard: false", async () => {
    const reply = await request(base, "GET", "/bare/ui/")
    expect(reply.status).toBe(404)
    expect((reply.body as { error: { code: string } }).error.code).toBe("not_found")
  })
})
