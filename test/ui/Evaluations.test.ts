/**
 * Evaluation insights on the dashboard, in a real browser against a real server on SQLite: a
 * flag's evaluations per hour (the chart, its summary for screen readers and the table beside it)
 * and when it was last evaluated, as `GET .../insights` answers; stale flags marked in the list and
 * filtered as `?status=stale` filters them. Counts are written straight into storage (the server
 * writes its own at most every 10 s), so the hours and numbers are known. axe-core checks each view.
 */
import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Flag } from "../../src/domain/definitions/Flag.js"
import { hourOf } from "../../src/domain/insights/Insights.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { InsightsRepository } from "../../src/ports/InsightsRepository.js"
import { oldFlag } from "../fixtures/OldFlag.js"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn, showSection } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const HOUR = 3_600_000
const now = Date.now()
const twoHoursAgo = hourOf(now - 2 * HOUR)
const oneHourAgo = hourOf(now - HOUR)
const lastEvaluated = new Date(now - HOUR).toISOString()

const api = async (method: string, path: string) => {
  const reply = await request(server.url, method, path, { key: server.keys.global })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(200)
  return reply.body
}

beforeAll(async () => {
  server = await startSqliteServer("evaluations")
  await server.run(Effect.gen(function* () {
    const flags = yield* FlagRepository
    yield* flags.insert("p1", oldFlag("old-unused"))
    yield* flags.insert("p1", oldFlag("old-used"))
    const counts = (flagKey: string, variationKey: string, hour: string, count: number) => ({ projectId: "p1", environmentKey: "production", flagKey, variationKey, hour, count })
    yield* (yield* InsightsRepository).add(
      [counts("old-used", "on", twoHoursAgo, 5), counts("old-used", "off", twoHoursAgo, 3), counts("old-used", "on", oneHourAgo, 7)],
      [{ projectId: "p1", environmentKey: "production", flagKey: "old-used", at: lastEvaluated }]
    )
  }))
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("a flag's evaluations", () => {
  it("charts each variation per hour, with a summary, the same numbers as a table, and the last evaluation", async () => {
    await open(page, "#/flags/old-used")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await showSection(page, "Evaluations")
    const section = page.getByRole("region", { name: "Evaluations in production" })
    const chart = section.getByRole("img", { name: "Evaluations of old-used in production per hour, the last 24 hours" })
    await chart.waitFor()
    const series = (await api("GET", "/v1/projects/p1/flags/old-used/insights?environment=production")) as { variations: Array<{ variationKey: string; total: number }> }
    expect(series.variations.map((v) => [v.variationKey, v.total])).toEqual([["on", 12], ["off", 3]])
    expect(await section.getByRole("list", { name: "Variations" }).textContent()).toBe("on: 12off: 3")
    expect(await chart.locator("desc").textContent()).toContain("on: 12, off: 3. The busiest hour had 8.")
    // one stacked bar per hour: the busiest hour's two slices together reach the top of the scale
    expect(await chart.locator("g").count()).toBe(24)
    expect(await chart.locator("rect").count()).toBe(3)
    await section.getByText("Every hour as a table").click()
    const row = (hour: string) => section.getByRole("row", { name: new RegExp(`^${hour.slice(0, 10)} ${hour.slice(11, 19)} UTC`) })
    expect(await row(twoHoursAgo).getByRole("cell").allTextContents()).toEqual(["5", "3"])
    expect(await row(oneHourAgo).getByRole("cell").allTextContents()).toEqual(["7", "0"])
    expect(await section.locator("tbody tr").count()).toBe(24)
    expect(await section.textContent()).toContain(`Last evaluated in production: ${lastEvaluated.slice(0, 10)} ${lastEvaluated.slice(11, 19)} UTC.`)
    await checkPage(page, "flag-evaluations")

    await section.getByLabel("Period", { exact: true }).selectOption({ label: "the last 7 days" })
    await section.getByRole("img", { name: "Evaluations of old-used in production per hour, the last 7 days" }).waitFor()
    expect(await section.locator("tbody tr").count()).toBe(7 * 24)
  })

  it("says so when nothing was counted, and marks a stale flag", async () => {
    await open(page, "#/flags/old-unused")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await showSection(page, "Evaluations")
    const section = page.getByRole("region", { name: "Evaluations in production" })
    await section.getByText("No evaluation of old-unused in production was counted in the last 24 hours.").waitFor()
    expect(await section.textContent()).toContain("Last evaluated in production: never.")
    expect(await page.getByRole("heading", { name: /old-unused/ }).textContent()).toContain("stale")
    await checkPage(page, "flag-evaluations-none")
  })
})

describe("stale flags in the list", () => {
  it("marks stale flags and lists them alone, as ?status=stale does", async () => {
    await open(page, "#/flags")
    const rowOf = (key: string) => page.getByRole("row", { name: new RegExp(`^${key}`) })
    await rowOf("old-unused").waitFor()
    expect(await rowOf("old-unused").getByRole("rowheader").textContent()).toContain("stale")
    expect(await rowOf("old-used").getByRole("rowheader").textContent()).not.toContain("stale")
    await page.getByLabel("Only stale flags").check()
    const stale = ((await api("GET", "/v1/projects/p1/flags?status=stale")) as { data: Array<{ key: string }> }).data.map((f) => f.key)
    expect(stale).toEqual(["old-unused"])
    await expect.poll(async () => (await page.locator("table.flags tbody th a").allTextContents())).toEqual(stale)
    await checkPage(page, "flags-stale")
    await page.getByLabel("Only stale flags").uncheck()
    await expect.poll(() => page.locator("table.flags tbody tr").count()).toBe(2)
  })
})
