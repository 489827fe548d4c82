/**
 * Scheduled changes on the dashboard's flag page, in a real browser against a real server on
 * SQLite with its scheduler running: the targeting being edited is scheduled instead of saved, the
 * list shows it pending and then applied (and /v1/config serves it), a schedule that became
 * invalid shows as failed with the reason, a refused one puts the API's problems on the fields,
 * and a pending one is cancelled (in production only once the person confirms). axe-core checks
 * every new view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn, showSection } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

interface Served {
  readonly key: string
  readonly enabled: boolean
  readonly defaultVariationKey: string
}
/** The configuration of `flagKey` in `environment`, as SDKs download it. */
const served = async (environment: string, flagKey: string) => {
  const reply = await request(server.url, "GET", `/v1/config?environment=${environment}`, { key: server.keys.client })
  return (reply.body as { flags: Array<Served> }).flags.find((f) => f.key === flagKey)!
}

interface ListedSchedule {
  readonly id: string
  readonly status: string
  readonly reason?: string
}
const schedulesOf = async (flagKey: string) => ((await api("GET", `/v1/projects/p1/flags/${flagKey}/schedules`)) as { data: Array<ListedSchedule> }).data

/** A `datetime-local` value (UTC, to the second) `ms` from now. */
const inUtc = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 19)

const scheduleIn = async (environment: string, time: string) => {
  await page.getByLabel("Apply at (UTC)").fill(time)
  await page.getByRole("button", { name: `Schedule for ${environment}` }).click()
}

const schedules = () => page.getByRole("region", { name: "Scheduled changes" })

beforeAll(async () => {
  server = await startSqliteServer("schedules", { schedules: true })
  await api("POST", "/v1/projects/p1/flags", { key: "launch", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  await api("POST", "/v1/projects/p1/flags", {
    key: "banner",
    type: "string",
    variations: [{ key: "old", value: "old" }, { key: "beta", value: "beta" }, { key: "new", value: "new" }]
  })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("scheduled changes on the flag page", () => {
  it("schedules the targeting being edited; it is pending, then applied, and /v1/config serves it", async () => {
    await open(page, "#/flags/launch")
    await showSection(page, "Schedules")
    await schedules().getByText("No change is scheduled for this flag.").waitFor()
    await page.getByLabel("Environment", { exact: true }).selectOption("development")
    await showSection(page, "Targeting")
    await page.getByLabel("Enabled in development").check()
    await scheduleIn("development", inUtc(4_000))
    await page.getByText(/^Change to development scheduled for /).waitFor()
    // nothing changed now, and the editor starts again from what is saved
    expect(await page.getByLabel("Enabled in development").isChecked()).toBe(false)
    expect((await served("development", "launch")).enabled).toBe(false)
    await showSection(page, "Schedules")
    const row = schedules().getByRole("row", { name: /development/ })
    expect(await row.textContent()).toContain("pending")
    expect(await row.textContent()).toContain("on, default on, off off, 0 rules")
    await checkPage(page, "flag-schedule-pending")

    await expect.poll(() => row.getByRole("cell").nth(2).textContent(), { timeout: 15_000 }).toBe("applied")
    expect((await served("development", "launch")).enabled).toBe(true)
    const notice = page.getByText(/scheduled for .* was applied: the flag has a new version/)
    await notice.waitFor()
    await checkPage(page, "flag-schedule-applied")
    await page.getByRole("button", { name: "Reload the current version" }).click()
    await page.getByText(/^Version 2, changed/).waitFor()
    await showSection(page, "Targeting")
    expect(await page.getByLabel("Enabled in development").isChecked()).toBe(true)
    expect(await notice.count()).toBe(0)
    expect((await schedulesOf("launch")).map((s) => s.status)).toEqual(["applied"])
  })

  it("cancels a pending schedule (a production-like one asks first, both when it is made and when it is cancelled), and it never applies", async () => {
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByLabel("Enabled in production").check()
    await scheduleIn("production", "2099-01-01T09:00:00")
    await page.getByRole("dialog").waitFor()
    await checkPage(page, "flag-schedule-confirm")
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByText("Change to production scheduled for 2099-01-01 09:00:00 UTC.").waitFor()
    await showSection(page, "Schedules")
    const cancel = schedules().getByRole("button", { name: "Cancel the change to production at 2099-01-01 09:00:00 UTC" })
    // production is production-like: cancelling asks first; answering no keeps the schedule
    await cancel.click()
    await page.getByRole("dialog").getByText("Cancel the change to launch in production scheduled for 2099-01-01 09:00:00 UTC?").waitFor()
    await checkPage(page, "flag-schedule-cancel-confirm")
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    expect((await schedulesOf("launch")).map((s) => s.status)).toEqual(["applied", "pending"])
    await cancel.click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByRole("status").filter({ hasText: "The change to production scheduled for 2099-01-01 09:00:00 UTC is cancelled." }).waitFor()
    await expect.poll(() => cancel.count()).toBe(0)
    const row = schedules().getByRole("row", { name: /production/ })
    expect(await row.getByRole("cell").nth(2).textContent()).toBe("cancelled")
    await checkPage(page, "flag-schedule-cancelled")
    expect((await schedulesOf("launch")).map((s) => s.status)).toEqual(["applied", "cancelled"])
    expect((await served("production", "launch")).enabled).toBe(false)
  })

  it("puts the API's refusal of a scheduled targeting next to the fields, and schedules nothing", async () => {
    await showSection(page, "Targeting")
    await page.getByRole("button", { name: "Add rule" }).click()
    await page.getByLabel("Rule 1: serve").selectOption({ label: "a percentage rollout" })
    await page.getByLabel("Rule 1: percentage for on").fill("30")
    await page.getByLabel("Rule 1: percentage for off").fill("60")
    await scheduleIn("production", "2099-01-01T09:00:00")
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    const rollout = page.getByRole("group", { name: "Rule 1: rollout" })
    await expect.poll(() => rollout.locator(".problems").textContent()).toContain("the shares must total 100% (they total 90%)")
    expect(await page.getByRole("form", { name: "Targeting in production" }).getByRole("alert").textContent()).toContain("Rule 1, rollout shares: the shares must total 100% (they total 90%)")
    await checkPage(page, "flag-schedule-refused")
    expect(await schedulesOf("launch")).toHaveLength(2)
  })

  it("shows a schedule that became invalid before its time as failed, with the reason, changing nothing", async () => {
    await open(page, "#/flags/banner")
    await page.getByLabel("Environment", { exact: true }).selectOption("development")
    await page.getByLabel("Default variation (no rule matches)").selectOption("beta")
    await scheduleIn("development", inUtc(5_000))
    await page.getByText(/^Change to development scheduled for /).waitFor()
    // someone removes the variation the schedule serves before it runs
    await api("PATCH", "/v1/projects/p1/flags/banner", { variations: [{ key: "old", value: "old" }, { key: "new", value: "new" }] })
    await showSection(page, "Schedules")
    const row = schedules().getByRole("row", { name: /development/ })
    await expect.poll(() => row.getByRole("cell").nth(2).textContent(), { timeout: 15_000 }).toMatch(/^failed: /)
    const [listed] = await schedulesOf("banner")
    expect(await row.getByRole("cell").nth(2).textContent()).toBe(`failed: ${listed!.reason}`)
    expect(listed!.reason).toContain("beta")
    await page.getByText(`failed and changed nothing: ${listed!.reason}`).waitFor()
    await checkPage(page, "flag-schedule-failed")
    expect((await served("development", "banner")).defaultVariationKey).toBe("old")
  })
})
