/**
 * The Experiments pages in a real browser against a real server on SQLite: an experiment is made
 * from a flag's rollout rule (only rules that split units by a percentage are offered; the API's
 * refusal lands on the field it names), started (a second experiment on the same rule is refused
 * with the API's reason), stopped with a decision after a confirmation; a viewer only reads. Each
 * step is checked through the HTTP API; every view is checked at 1,440 and 360 px wide (no
 * sideways scroll, axe-clean) and no CSP violation is reported.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { makePerson, PASSWORD } from "../http/people.js"
import { checkPage, launch, open, signIn, watchedPage } from "./Browser.js"
import { FLAG, TARGETING } from "./ExperimentSetup.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

interface ExperimentBody {
  readonly key: string
  readonly ruleId: string
  readonly status: string
  readonly controlVariationKey: string
  readonly metrics: ReadonlyArray<{ key: string; event: string; kind: string }>
  readonly decision?: { variationKey: string; note: string }
}

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}
const experiment = async (key: string) => (await api("GET", `/v1/projects/p1/experiments/${key}`)) as ExperimentBody
const halfRuleId = async () => {
  const flag = (await api("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ id: string; name?: string }> }> }
  return flag.configs.find((c) => c.environmentKey === "production")!.rules.find((r) => r.name === "Half")!.id
}

/** No sideways scroll at this width, no WCAG 2.1 A/AA violation, a screenshot: at 1,440 and 360 px, then back to 1,440. */
const checkWidths = async (name: string) => {
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 })
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0)
    await checkPage(page, `experiments-${name}-${width}`)
  }
  await page.setViewportSize({ width: 1440, height: 900 })
}

const form = () => page.getByRole("form", { name: "New experiment" })
const metric = (n: number) => form().getByRole("group", { name: `Metric ${n}` })

beforeAll(async () => {
  server = await startSqliteServer("experiments")
  await api("POST", "/v1/projects/p1/flags", FLAG)
  await api("POST", "/v1/projects/p1/flags", { key: "dark-mode", type: "boolean", variations: FLAG.variations })
  await api("PUT", `/v1/projects/p1/flags/${FLAG.key}/targeting`, TARGETING)
  await server.run(makePerson("vic@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto(`${server.url}/ui/`)
  await signIn(page, server.keys.global)
  await page.getByLabel("Project").selectOption("p1")
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the Experiments page", () => {
  it("makes an experiment from a flag's rollout rule; the API's refusal shows on the field it names", async () => {
    await open(page, "#/experiments")
    await page.getByText("No experiments yet.").waitFor()
    await page.getByRole("button", { name: "New experiment" }).click()
    await form().getByLabel("Experiment key").fill("checkout-redesign")
    await form().getByLabel("Experiment name").fill("Checkout redesign")
    await form().getByLabel("Environment").selectOption("production")
    // A flag with no rollout rule in production says where to add one.
    await form().getByLabel("Find a flag").fill("dark")
    await expect.poll(() => form().getByLabel("Flag", { exact: true }).locator("option").allTextContents()).toEqual(["Choose a flag…", "dark-mode"])
    await form().getByLabel("Flag", { exact: true }).selectOption("dark-mode")
    await form().getByText("No rule of dark-mode in production splits units by a percentage rollout.").waitFor()
    await form().getByLabel("Find a flag").fill("checkout")
    await expect.poll(() => form().getByLabel("Flag", { exact: true }).locator("option").allTextContents()).toContain("new-checkout (New checkout)")
    await form().getByLabel("Flag", { exact: true }).selectOption("new-checkout")
    // Only the rule that splits by a percentage is offered; the beta list serves one variation.
    expect(await form().getByLabel("Rule", { exact: true }).locator("option").allTextContents()).toEqual(["Rule 2 “Half”: v2 50%, classic 50%"])
    expect(await form().getByLabel("Control variation").inputValue()).toBe("classic")
    await metric(1).getByLabel("Metric 1: key").fill("purchases")
    await metric(1).getByLabel("Metric 1: event").fill("purchase")
    await metric(1).getByLabel("Metric 1: window (hours)").fill("168")
    await form().getByRole("button", { name: "Add metric" }).click()
    await metric(2).getByLabel("Metric 2: key").fill("purchases")
    await metric(2).getByLabel("Metric 2: event").fill("purchase")
    await metric(2).getByLabel("Metric 2: kind").selectOption("mean")
    await form().getByRole("button", { name: "Create experiment" }).click()
    await form().getByRole("alert").getByText("Metric 2, Key: 'purchases' is already the key of another metric").waitFor()
    expect(await metric(2).getByLabel("Metric 2: key").getAttribute("aria-invalid")).toBe("true")
    expect(((await api("GET", "/v1/projects/p1/experiments")) as { data: Array<unknown> }).data).toEqual([])
    await checkWidths("create-refused")

    await metric(2).getByLabel("Metric 2: key").fill("revenue")
    await metric(2).getByLabel("Metric 2: role").selectOption("secondary")
    await form().getByRole("button", { name: "Create experiment" }).click()
    await page.getByRole("heading", { name: "Checkout redesign checkout-redesign" }).waitFor()
    expect(page.url()).toContain("#/experiments/checkout-redesign")
    const made = await experiment("checkout-redesign")
    expect(made).toMatchObject({ status: "draft", ruleId: await halfRuleId(), controlVariationKey: "classic" })
    expect(made.metrics.map((m) => [m.key, m.event, m.kind])).toEqual([["purchases", "purchase", "conversion"], ["revenue", "purchase", "mean"]])
    await page.getByText("Results appear once the experiment starts.").waitFor()
    await checkWidths("draft")
  })

  it("starts it; a second experiment on the same rule is refused with the API's reason", async () => {
    await page.getByRole("button", { name: "Start experiment" }).click()
    await page.locator("main").getByText(/^running since/).waitFor()
    expect((await experiment("checkout-redesign")).status).toBe("running")

    await api("POST", "/v1/projects/p1/experiments", {
      key: "checkout-again",
      flagKey: FLAG.key,
      environment: "production",
      ruleId: await halfRuleId(),
      controlVariationKey: "classic",
      metrics: [{ key: "purchases", event: "purchase", kind: "conversion", goal: "increase", role: "primary" }]
    })
    await open(page, "#/experiments/checkout-again")
    await page.getByRole("button", { name: "Start experiment" }).click()
    await page.getByRole("alert").getByText(/checkout-redesign/).waitFor()
    expect((await experiment("checkout-again")).status).toBe("draft")
    await checkWidths("start-refused")
  })

  it("stops it with the team's decision, after asking", async () => {
    await open(page, "#/experiments/checkout-redesign")
    const stop = page.getByRole("form", { name: "Stop the experiment" })
    await stop.getByLabel("Decision").selectOption("v2")
    await stop.getByLabel("Why").fill("Purchases up, errors flat: shipping it")
    await stop.getByRole("button", { name: "Stop experiment" }).click()
    await page.getByRole("dialog").getByText("Stop Checkout redesign? A stopped experiment keeps its results but cannot start again.").waitFor()
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    expect((await experiment("checkout-redesign")).status).toBe("running")
    await stop.getByRole("button", { name: "Stop experiment" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByText("Decision: keep Checkout v2: Purchases up, errors flat: shipping it").waitFor()
    expect(await experiment("checkout-redesign")).toMatchObject({ status: "stopped", decision: { variationKey: "v2", note: "Purchases up, errors flat: shipping it" } })
    expect(await stop.count()).toBe(0)
  })

  it("lists every experiment with its status and decision", async () => {
    await open(page, "#/experiments")
    const rows = page.getByRole("table").getByRole("row")
    await expect.poll(() => rows.count()).toBe(3)
    expect(await rows.nth(1).textContent()).toMatch(/Checkout redesign.*new-checkout.*production.*stopped.*keep v2/)
    expect(await rows.nth(2).textContent()).toMatch(/checkout-again.*draft.*not started.*none/)
    await checkWidths("list")
  })

  it("a viewer reads the experiments and is offered no action", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    const signInForm = page.getByRole("form", { name: "Sign in with email and password" })
    await signInForm.getByLabel("Email").fill("vic@example.com")
    await signInForm.getByLabel("Password").fill(PASSWORD)
    await signInForm.getByRole("button", { name: "Sign in", exact: true }).click()
    await open(page, "#/experiments")
    await page.getByRole("table").getByRole("link", { name: "checkout-again" }).waitFor()
    expect(await page.getByRole("button", { name: "New experiment" }).count()).toBe(0)
    await open(page, "#/experiments/checkout-again")
    await page.getByRole("heading", { name: /checkout-again/ }).waitFor()
    expect(await page.getByRole("main").getByRole("button").count()).toBe(0)
    await checkWidths("viewer")
    expect(cspViolations).toEqual([])
  })
})
