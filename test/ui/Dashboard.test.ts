/**
 * The dashboard in a real browser against a real server on SQLite (the standalone composition,
 * webhook dispatcher on): sign-in, flags, targeting, segments, environments, webhooks and the
 * playground, each checked through the API it drives; an axe-core check and a screenshot of every
 * page. One browser and one page for the whole file, pages reached by their routes.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as App from "../../adapters/http/serving/App.js"
import { makeHandlers } from "../../adapters/http/serving/Embed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage as checkPageOf, launch, open as openRoute, showSection, signIn as signInWith, watchedPage } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
let receiver: Server
let receiverUrl: string
const received: Array<string> = []
const cspViolations: Array<string> = []

const evaluate = async (flagKey: string, attributes: Record<string, unknown> = {}, key = "user-1") => {
  const reply = await request(server.url, "POST", "/v1/evaluate", {
    key: server.keys.client,
    body: { environment: "production", context: { key, attributes } }
  })
  expect(reply.status).toBe(200)
  return (reply.body as { flags: Record<string, { value: unknown; reason: { kind: string; ruleIndex?: number } }> }).flags[flagKey]!
}

const productionConfig = async (flagKey: string) => {
  const reply = await request(server.url, "GET", "/v1/config?environment=production", { key: server.keys.client })
  return (reply.body as { flags: Array<{ key: string; rules: Array<{ name?: string; conditions: Array<unknown>; rollout?: { variations: Array<{ variationKey: string; weight: number }> } }> }> })
    .flags.find((f) => f.key === flagKey)!
}

const checkPage = (name: string) => checkPageOf(page, name)
const signIn = (key: string) => signInWith(page, key)

/** Saves the targeting of production, confirming the question production-like environments ask. */
const saveProduction = async () => {
  // The flag page's own status line (each section, mounted while hidden, may have its own).
  const status = page.locator("section[aria-labelledby=flag-title] > p.status")
  const errors = page.locator(".error-summary")
  const before = await status.textContent()
  const errorsBefore = await errors.count()
  await page.getByRole("button", { name: "Save targeting in production" }).click()
  await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
  // Done when the server answered: a new "saved (version N)" status, or an error summary that was
  // not on the page before (one left by an earlier step must not end the wait early).
  await expect
    .poll(async () => ((await status.textContent()) !== before && (await status.textContent())?.includes("saved")) || (await errors.count()) > errorsBefore)
    .toBe(true)
}

const open = (hash: string) => openRoute(page, hash)

beforeAll(async () => {
  server = await startSqliteServer("dashboard", { webhooks: true })
  receiver = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString()))
    req.on("end", () => {
      received.push(body)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (receiver === undefined ? resolve() : receiver.close(() => resolve())))
  await server?.close()
})

describe("the dashboard in a browser", () => {
  it("refuses a wrong key and a client key with the API's message", async () => {
    await page.goto(`${server.url}/ui/`)
    await checkPage("sign-in")
    await signIn("srv_not-a-real-key")
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Invalid API key.")
    await signIn(server.keys.client)
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("A server API key is required for management endpoints.")
    expect(await page.evaluate(() => sessionStorage.getItem("flagport.serverKey"))).toBeNull()
  })

  it("signs in with a project-scoped key straight into its project", async () => {
    await signIn(server.keys.scoped)
    await page.getByRole("heading", { name: "Flags" }).waitFor()
    expect(await page.getByText("Project: p1").count()).toBe(1)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Server key").waitFor()
    expect(await page.evaluate(() => sessionStorage.getItem("flagport.serverKey"))).toBeNull()
  })

  it("signs in with a global key, which picks a project; the key is never in the URL", async () => {
    await signIn(server.keys.global)
    await page.getByLabel("Project").selectOption("p1")
    await page.getByRole("heading", { name: "Flags" }).waitFor()
    expect(page.url()).not.toContain(server.keys.global)
    expect(await page.evaluate(() => sessionStorage.getItem("flagport.serverKey"))).toBe(server.keys.global)
  })

  it("creates a flag", async () => {
    await page.getByRole("button", { name: "New flag" }).click()
    const form = page.getByRole("form", { name: "New flag" })
    await form.getByLabel("Key", { exact: true }).fill("checkout")
    await form.getByLabel("Name", { exact: true }).fill("New checkout")
    await checkPage("flags-new")
    await form.getByRole("button", { name: "Create flag" }).click()
    await page.getByRole("heading", { name: /checkout/ }).waitFor()
    const created = await request(server.url, "GET", "/v1/projects/p1/flags/checkout", { key: server.keys.global })
    expect(created.status).toBe(200)
    expect((created.body as { variations: unknown }).variations).toEqual([{ key: "on", value: true }, { key: "off", value: false }])
  })

  it("switches the flag on in production after a confirmation, and /v1/evaluate follows", async () => {
    expect((await evaluate("checkout")).value).toBe(false)
    await open("#/flags")
    const sw = page.getByRole("switch", { name: "checkout in production" })
    await sw.click()
    const dialog = page.getByRole("dialog")
    await dialog.waitFor()
    await checkPage("flags-confirm")
    await dialog.getByRole("button", { name: "Confirm" }).click()
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true")
    expect((await evaluate("checkout")).value).toBe(true)
    // development is not production-like: one click, no question
    await page.getByRole("switch", { name: "checkout in development" }).click()
    await expect.poll(() => page.getByRole("switch", { name: "checkout in development" }).getAttribute("aria-checked")).toBe("true")
    await checkPage("flags")
  })

  it("switches a flag with the keyboard alone", async () => {
    await page.getByLabel("Search by key or name").focus()
    const target = "checkout in development"
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("Tab")
      if ((await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))) === target) break
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(target)
    await page.keyboard.press("Space")
    const sw = page.getByRole("switch", { name: target })
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("false")
    await page.keyboard.press("Enter")
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true")
    // production asks first; Escape cancels and nothing changes
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("checkout in production")
    await page.keyboard.press("Space")
    await page.getByRole("dialog").waitFor()
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "hidden" })
    expect(await page.getByRole("switch", { name: "checkout in production" }).getAttribute("aria-checked")).toBe("true")
    expect((await evaluate("checkout")).value).toBe(true)
  })

  it("works under a host's prefix, calling the API under the same prefix", async () => {
    const context = await server.run(Effect.context<StorageLayer.Storage>())
    const mounted = await makeHandlers({ prefix: "/flags", services: App.servicesFrom(Layer.succeedContext(context)) })
    const host = createServer((req, res) => (req.url?.startsWith("/flags") ? mounted.node(req, res) : res.writeHead(404).end()))
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    try {
      // another origin: its own sessionStorage, so a sign-in of its own
      await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/flags/ui/`)
      await page.getByLabel("Server key").fill(server.keys.scoped)
      await page.getByRole("button", { name: "Sign in with the key" }).click()
      await page.getByRole("link", { name: "checkout" }).waitFor()
      await page.goto(`${server.url}/ui/#/flags`)
      await page.getByRole("link", { name: "checkout" }).waitFor()
    } finally {
      host.closeAllConnections()
      await new Promise<void>((resolve) => host.close(() => resolve()))
      await mounted.dispose()
    }
  })

  it("adds a rule with an `in` condition and a 30/70 rollout, and the API serves it", async () => {
    await open("#/flags/checkout")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByRole("button", { name: "Add rule" }).click()
    await page.getByLabel("Rule 1: name").fill("Beta")
    await page.getByRole("button", { name: "Add condition to rule 1" }).click()
    await page.getByLabel("Rule 1 condition 1: attribute").fill("plan")
    await page.getByLabel("Rule 1 condition 1: operator").selectOption("in")
    await page.getByRole("button", { name: "Add value" }).click()
    await page.getByLabel("Rule 1 condition 1: value 1").fill("beta")
    await page.getByLabel("Rule 1: serve").selectOption({ label: "a percentage rollout" })
    await page.getByLabel("Rule 1: percentage for on").fill("30")
    await page.getByLabel("Rule 1: percentage for off").fill("70")
    const preview = page.getByRole("region", { name: "Change to production" })
    await expect.poll(() => preview.locator(".changes").textContent()).toContain("Rule 1 'Beta' added: if plan in [beta], serve rollout on 30%, off 70%")
    expect(await preview.textContent()).toContain('"weight": 30000')
    await checkPage("flag-targeting")
    await saveProduction()
    const config = await productionConfig("checkout")
    expect(config.rules).toHaveLength(1)
    expect(config.rules[0]!.conditions).toEqual([{ attribute: "plan", operator: "in", values: ["beta"] }])
    expect(config.rules[0]!.rollout!.variations).toEqual([{ variationKey: "on", weight: 30000 }, { variationKey: "off", weight: 70000 }])
    const served = await Promise.all(Array.from({ length: 200 }, (_, i) => evaluate("checkout", { plan: "beta" }, `user-${i}`)))
    expect(served.every((r) => r.reason.kind === "RULE_MATCH")).toBe(true)
    const on = served.filter((r) => r.value === true).length
    expect(on).toBeGreaterThan(30)
    expect(on).toBeLessThan(90)
    expect((await evaluate("checkout", { plan: "free" })).reason.kind).toBe("FALLTHROUGH")
  })

  it("refuses a rollout whose shares do not total 100%, with the message next to the shares", async () => {
    await page.getByLabel("Rule 1: percentage for off").fill("60")
    await expect.poll(() => page.getByText("Total: 90%").count()).toBe(1)
    await saveProduction()
    const rollout = page.getByRole("group", { name: "Rule 1: rollout" })
    await expect.poll(() => rollout.locator(".problems").textContent()).toContain("the shares must total 100% (they total 90%)")
    await checkPage("flag-refused")
    expect((await productionConfig("checkout")).rules[0]!.rollout!.variations[1]!.weight).toBe(70000)
    await page.getByLabel("Rule 1: percentage for off").fill("70")
  })

  it("reorders rules", async () => {
    await page.getByRole("button", { name: "Add rule" }).click()
    await page.getByLabel("Rule 2: name").fill("Everyone else")
    await page.getByRole("button", { name: "Move up rule 2" }).click()
    expect(await page.getByLabel("Rule 1: name").inputValue()).toBe("Everyone else")
    expect(await page.getByLabel("Rule 2: name").inputValue()).toBe("Beta")
    expect(await page.getByLabel("Rule 2 condition 1: value 1").inputValue()).toBe("beta")
    await saveProduction()
    // /v1/config reflects a write within the freshness bound (1 s), not necessarily at once.
    await expect.poll(async () => (await productionConfig("checkout")).rules.map((r) => r.name), { timeout: 1_000 }).toEqual(["Everyone else", "Beta"])
    expect((await evaluate("checkout", { plan: "beta" })).reason).toMatchObject({ kind: "RULE_MATCH", ruleIndex: 0 })
    await page.getByRole("button", { name: "Move up rule 2" }).click()
    await page.getByRole("button", { name: "Remove rule 2" }).click()
    await saveProduction()
    await expect.poll(async () => (await productionConfig("checkout")).rules.map((r) => r.name)).toEqual(["Beta"])
  })

  it("creates a segment, uses it in a rule, and lists the flag using it", async () => {
    await open("#/segments")
    await page.getByRole("button", { name: "New segment" }).click()
    await page.getByLabel("Segment key").fill("staff")
    await page.getByLabel("Segment name").fill("Staff")
    await page.getByRole("button", { name: "Add segment condition" }).click()
    await page.getByLabel("Segment condition 1: attribute").fill("email")
    await page.getByLabel("Segment condition 1: operator").selectOption("endsWith")
    await page.getByRole("button", { name: "Add value" }).click()
    await page.getByLabel("Segment condition 1: value 1").fill("@example.com")
    await checkPage("segments-new")
    await page.getByRole("button", { name: "Create segment" }).click()
    await page.getByRole("row", { name: /Staff/ }).waitFor()
    await open("#/flags/checkout")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByRole("button", { name: "Add rule" }).click()
    await page.getByRole("button", { name: "Move up rule 2" }).click()
    await page.getByRole("button", { name: "Add condition to rule 1" }).click()
    await page.getByLabel("Rule 1 condition 1: operator").selectOption("inSegment")
    await page.getByRole("group", { name: "Rule 1 condition 1: segments" }).getByLabel(/Staff/).check()
    await page.getByLabel("Rule 1: serve").selectOption("on")
    await saveProduction()
    await expect.poll(async () => (await evaluate("checkout", { email: "ann@example.com", plan: "free" })).reason).toMatchObject({ kind: "RULE_MATCH", ruleIndex: 0 })
    await open("#/segments")
    await expect.poll(() => page.getByRole("row", { name: /Staff/ }).textContent()).toContain("checkout")
    await checkPage("segments")
  })

  it("lists and creates environments", async () => {
    await open("#/environments")
    await page.getByLabel("Environment key").fill("staging")
    await page.getByLabel("Environment name").fill("Staging")
    await page.getByRole("button", { name: "Create environment" }).click()
    await page.getByRole("row", { name: /staging/ }).waitFor()
    await checkPage("environments")
    const reply = await request(server.url, "GET", "/v1/projects/p1/environments", { key: server.keys.global })
    expect((reply.body as { data: Array<{ key: string }> }).data.map((e) => e.key)).toContain("staging")
  })

  it("creates a webhook, shows its delivery log with attempts, redelivers, and disables it", async () => {
    await open("#/webhooks")
    await page.getByLabel("Destination URL").fill(receiverUrl)
    await page.getByRole("button", { name: "Create webhook" }).click()
    await page.getByRole("row", { name: new RegExp(receiverUrl) }).waitFor()
    // a change to deliver
    await request(server.url, "PATCH", "/v1/projects/p1/flags/checkout", { key: server.keys.global, body: { name: "Checkout v2" } })
    await page.getByRole("button", { name: `Delivery log of ${receiverUrl}` }).click()
    const log = page.getByRole("region", { name: `Delivery log of ${receiverUrl}` })
    await expect.poll(async () => {
      await log.getByRole("button", { name: "Refresh" }).click()
      return log.textContent()
    }, { timeout: 15_000 }).toMatch(/succeeded[\s\S]*HTTP 204/)
    expect(received.some((b) => b.includes("flag.updated"))).toBe(true)
    await checkPage("webhooks")
    await log.getByRole("button", { name: /^Redeliver flag.updated/ }).first().click()
    await expect.poll(() => log.getByText("redelivery").count(), { timeout: 15_000 }).toBeGreaterThan(0)
    const sw = page.getByRole("switch", { name: `Webhook ${receiverUrl} enabled` })
    await sw.click()
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("false")
    const hooks = await request(server.url, "GET", "/v1/projects/p1/webhooks", { key: server.keys.global })
    expect((hooks.body as { data: Array<{ enabled: boolean }> }).data[0]!.enabled).toBe(false)
  })

  it("evaluates in the playground as /v1/flags/{key}/eval does", async () => {
    await open("#/playground")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByLabel("Flag", { exact: true }).selectOption("checkout")
    await page.getByLabel("Context key").fill("user-7")
    await page.getByLabel("Context attributes (JSON object)").fill('{"email":"bo@example.com"}')
    await page.getByRole("button", { name: "Evaluate" }).click()
    const result = page.getByRole("region", { name: "Result" })
    await result.waitFor()
    expect(await result.textContent()).toContain("RULE_MATCH")
    await page.getByLabel("Context attributes (JSON object)").fill("{not json")
    expect(await page.getByRole("button", { name: "Evaluate" }).isDisabled()).toBe(true)
    await page.getByLabel("Context attributes (JSON object)").fill("{}")
    await checkPage("playground")
  })

  it("shows the audit log with who made each change, filters it to one flag, and a flag's page shows its history", async () => {
    await page.getByRole("link", { name: "Audit log" }).click()
    await page.getByRole("heading", { name: "Audit log" }).waitFor()
    const main = page.locator("main")
    // The environment made on the environments page, by the signed-in (global) key.
    await main.getByRole("row", { name: /environment\.created.*staging/ }).first().waitFor()
    await page.getByLabel("Resource type").selectOption("flag")
    await page.getByLabel("Resource key").fill("checkout")
    await page.getByRole("button", { name: "Show" }).click()
    await expect.poll(async () => {
      const rows = await main.locator("tbody tr").allTextContents()
      return rows.length > 0 && rows.every((r) => r.includes("checkout")) && rows.some((r) => r.includes("flag.created"))
    }).toBe(true)
    const first = main.locator("tbody tr").first()
    await first.getByRole("button", { name: "Change" }).click()
    await main.locator(".change-row .diff").waitFor()
    await checkPage("audit")
    const reply = await request(server.url, "GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=checkout", { key: server.keys.global })
    const entries = (reply.body as { data: Array<{ action: string }> }).data
    expect(await main.locator("tbody tr:not(.change-row)").count()).toBe(entries.length)
    await open("#/flags/checkout")
    await showSection(page, "History")
    const history = page.getByRole("region", { name: "History" })
    await history.getByRole("row", { name: /flag\.created/ }).waitFor()
    expect(await history.locator("tbody tr").count()).toBe(entries.length)
  })

  it("signs out, which forgets the key", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Server key").waitFor()
    expect(await page.evaluate(() => sessionStorage.getItem("flagport.serverKey"))).toBeNull()
    await page.reload()
    await page.getByLabel("Server key").waitFor()
    expect(cspViolations).toEqual([])
  })
})
