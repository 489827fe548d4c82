/**
 * The project's Schedules page, in a real browser against a real server on SQLite: two changes
 * scheduled through the API are listed earliest first (each linking to its flag), the environment
 * filter narrows the list, cancelling one (production asks first) removes it and the API shows it
 * cancelled, and the empty state says what schedules are. axe-core checks every view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const schedule = async (flagKey: string, environment: string, at: string, enabled: boolean) =>
  (await api("POST", `/v1/projects/p1/flags/${flagKey}/schedules`, {
    environment,
    at,
    targeting: { enabled, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
  })) as { id: string }

const region = () => page.getByRole("region", { name: "Schedules" })
const rows = () => region().locator("tbody tr")

beforeAll(async () => {
  server = await startSqliteServer("project-schedules", { schedules: true })
  for (const key of ["launch", "banner"])
    await api("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the project's Schedules page", () => {
  it("says what schedules are when there are none", async () => {
    await open(page, "#/flags")
    await page.getByRole("link", { name: "Schedules" }).click()
    await page.getByRole("heading", { name: "Schedules" }).waitFor()
    await region().getByText("No change is scheduled in this project.").waitFor()
    expect(await page.getByRole("link", { name: "Schedules" }).getAttribute("aria-current")).toBe("page")
    await checkPage(page, "project-schedules-empty")
  })

  it("lists the pending schedules earliest first, filters by environment, and cancels one", async () => {
    // made later but due earlier: the list is by time, not by creation
    const late = await schedule("launch", "development", "2099-06-01T09:00:00Z", true)
    const early = await schedule("banner", "production", "2099-01-01T09:00:00Z", true)
    await open(page, "#/flags")
    await open(page, "#/schedules")
    await expect.poll(() => rows().count()).toBe(2)
    const first = (await rows().nth(0).textContent()) ?? ""
    const second = (await rows().nth(1).textContent()) ?? ""
    expect(first).toContain("2099-01-01 09:00:00 UTC")
    expect(first).toContain("banner")
    expect(first).toContain("production")
    expect(first).toContain("on, default on, off off, 0 rules")
    expect(second).toContain("2099-06-01 09:00:00 UTC")
    expect(second).toContain("launch")
    expect(second).toContain("development")
    expect(await rows().nth(0).getByRole("link", { name: "banner" }).getAttribute("href")).toBe("#/flags/banner")
    await checkPage(page, "project-schedules-list")

    await page.getByLabel("Environment").selectOption("development")
    await expect.poll(() => rows().count()).toBe(1)
    expect(await rows().nth(0).textContent()).toContain("launch")
    // the development list stays on screen until production's replaces it: wait for its content
    await page.getByLabel("Environment").selectOption("production")
    await expect.poll(() => rows().nth(0).textContent()).toContain("banner")
    expect(await rows().count()).toBe(1)
    await checkPage(page, "project-schedules-filtered")

    // production is production-like: cancelling asks first; answering no keeps it
    const cancel = region().getByRole("button", { name: "Cancel the change to banner in production at 2099-01-01 09:00:00 UTC" })
    await cancel.click()
    await page.getByRole("dialog").waitFor()
    await checkPage(page, "project-schedules-confirm")
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    expect(await rows().count()).toBe(1)
    await cancel.click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByRole("status").filter({ hasText: "The change to banner in production scheduled for 2099-01-01 09:00:00 UTC is cancelled." }).waitFor()
    await region().getByText("No change is scheduled in production.").waitFor()
    await page.getByLabel("Environment").selectOption("")
    await expect.poll(() => rows().count()).toBe(1)
    expect(await rows().nth(0).textContent()).toContain("launch")
    await checkPage(page, "project-schedules-cancelled")

    const banner = (await api("GET", "/v1/projects/p1/flags/banner/schedules")) as { data: Array<{ id: string; status: string }> }
    expect(banner.data.map((s) => [s.id, s.status])).toEqual([[early.id, "cancelled"]])
    const pending = (await api("GET", "/v1/projects/p1/schedules")) as { data: Array<{ id: string }> }
    expect(pending.data.map((s) => s.id)).toEqual([late.id])
  })
})
