/**
 * GET /docs in a real browser (Chromium from @sparticuz/chromium) with every request that leaves
 * the server aborted and recorded: the page renders the API and attempts nothing outside (no
 * fonts, no scripts), its authentication starts on `bearerAuth`, its Content-Security-Policy
 * refuses nothing the viewer does, the viewer's cloud features are not shown, and the version
 * shown is the package's.
 */
import chromiumBinary from "@sparticuz/chromium"
import { chromium, type Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import pkg from "../../package.json" with { type: "json" }
import { startServer, type TestServer } from "./fixtures.js"

let t: TestServer
let browser: Browser
beforeAll(async () => {
  t = await startServer()
  browser = await chromium.launch({ executablePath: await chromiumBinary.executablePath(), args: chromiumBinary.args })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await t?.close()
})

describe("GET /docs in a browser", () => {
  it("renders the API with bearerAuth selected and requests nothing outside the server", async () => {
    const page = await browser.newPage()
    const refused: Array<string> = []
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text())
    })
    page.on("pageerror", (error) => refused.push(error.message))
    const outside: Array<string> = []
    const origin = new URL(t.url).origin
    await page.route("**/*", (route) => {
      const url = route.request().url()
      if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue()
      outside.push(url)
      return route.abort()
    })
    await page.goto(`${t.url}/docs`, { waitUntil: "networkidle" })
    await page.getByText("Selected Auth Type:").first().waitFor({ timeout: 30_000 })
    const lines = (await page.locator("body").innerText()).split("\n").map((line) => line.trim())
    expect(lines[lines.indexOf("Selected Auth Type:") + 1]).toBe("bearerAuth")
    expect(lines).toContain("Liveness and a database check")
    expect(outside).toEqual([])
    expect(refused).toEqual([])
    for (const cloud of ["Developer Tools", "Generate SDKs", "Share"]) expect(lines, cloud).not.toContain(cloud)
    expect(lines).toContain(`v${pkg.version}`)
    await page.close()
  }, 90_000)
})
