/**
 * Copying targeting into a protected environment from the dashboard, in a real browser against a
 * real server on SQLite: an editor's copy of one flag (the flag's page, 1,440 px) and of every flag
 * (the Environments page, 360 px) opens a change request with each flag whose targeting differs,
 * instead of the copy the API refuses them; the target stays as it was until the request is
 * applied. Checked through the HTTP API; axe-core checks each view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, launch, open, watchedPage } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

const EDITOR = { email: "eddie@example.com", name: "Eddie Editor", password: "staple of twelve chars" }
const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

interface ChangeRequestBody {
  readonly title: string
  readonly environment: string
  readonly status: string
  readonly changes: ReadonlyArray<{ readonly flagKey: string; readonly after: { readonly enabled: boolean; readonly rules: ReadonlyArray<unknown> } }>
}

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const changeRequests = async () => ((await api("GET", "/v1/projects/p1/change-requests")) as { data: Array<ChangeRequestBody> }).data
const enabledIn = async (flagKey: string, environment: string) =>
  ((await api("GET", `/v1/projects/p1/flags/${flagKey}`)) as { configs: Array<{ environmentKey: string; enabled: boolean }> }).configs.find((c) => c.environmentKey === environment)!.enabled

const RULE = { name: "Staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "on" }

beforeAll(async () => {
  server = await startSqliteServer("copy-proposal")
  for (const key of ["checkout", "banner", "same"]) await api("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations: BOOLEAN })
  // development differs from production for checkout and banner; "same" is alike in both.
  await api("PUT", "/v1/projects/p1/flags/checkout/targeting", { environment: "development", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [RULE] })
  await api("PUT", "/v1/projects/p1/flags/banner/targeting", { environment: "development", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [] })
  await api("PATCH", "/v1/projects/p1/environments/production", { protected: true, requiredApprovals: 1 })
  const invited = (await api("POST", "/v1/users", { email: EDITOR.email, name: EDITOR.name, projects: [{ projectId: "p1", role: "editor" }] })) as { setupUrl: string }
  const token = new URL(invited.setupUrl).hash.replace(/^#token=/, "")
  expect((await request(server.url, "POST", "/v1/auth/setup", { body: { token, password: EDITOR.password } })).status).toBe(200)
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
  await page.goto(`${server.url}/ui/`)
  const form = page.getByRole("form", { name: "Sign in with email and password" })
  await form.getByLabel("Email").fill(EDITOR.email)
  await form.getByLabel("Password").fill(EDITOR.password)
  await form.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.locator("details.person-menu").waitFor()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("an editor's copy into a protected environment", () => {
  it("proposes one flag's targeting from its page, leaving production as it was", async () => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await open(page, "#/flags/checkout?environment=development")
    const copy = page.getByRole("form", { name: "Copy to another environment" })
    await copy.getByLabel("Copy development to").selectOption("production")
    await checkPage(page, "copy-proposal-flag-1440")
    await copy.getByRole("button", { name: "Propose copying development to production" }).click()
    await page.getByText("Change request “Copy checkout from development to production” opened").waitFor()
    const [opened] = (await changeRequests()).filter((r) => r.title === "Copy checkout from development to production")
    expect(opened).toMatchObject({ environment: "production", status: "open" })
    expect(opened!.changes.map((c) => [c.flagKey, c.after.enabled, c.after.rules.length])).toEqual([["checkout", true, 1]])
    expect(await enabledIn("checkout", "production")).toBe(false)
    expect(cspViolations).toEqual([])
  })

  it("proposes every flag that differs from the Environments page on a phone", async () => {
    await page.setViewportSize({ width: 360, height: 800 })
    await open(page, "#/environments")
    const form = page.getByRole("form", { name: "Copy all flags" })
    await form.getByLabel("From environment").selectOption("development")
    await form.getByLabel("To environment").selectOption("production")
    await expect.poll(() => form.textContent()).toContain("production is protected")
    await checkPage(page, "copy-proposal-all-360")
    await form.getByRole("button", { name: "Propose copying all flags" }).click()
    await expect.poll(() => form.getByRole("status").textContent()).toContain("Change request “Copy 2 flags from development to production” opened")
    const opened = (await changeRequests()).find((r) => r.title === "Copy 2 flags from development to production")!
    expect(opened.changes.map((c) => c.flagKey).sort()).toEqual(["banner", "checkout"])
    expect(await enabledIn("banner", "production")).toBe(false)
    await checkPage(page, "copy-proposal-all-opened-360")
    expect(cspViolations).toEqual([])
  })
})
