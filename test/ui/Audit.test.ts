/**
 * The audit log on the dashboard, in a real browser against a real server on SQLite (scheduler
 * on): the project's log page by page ("Show older") until it holds exactly what the API lists,
 * narrowed by environment, an entry's before and after as a diff that folds what did not change,
 * and a flag's History showing a change its schedule made, with the schedule as the actor.
 * axe-core checks every new view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn, showSection } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const FLAGS = 60
const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

interface Entry {
  readonly id: string
  readonly action: string
  readonly environment?: string
  readonly actor: { readonly type: string }
}
/** Every entry the API lists for `query`, all pages. */
const allEntries = async (query: string) => {
  const out: Array<Entry> = []
  let cursor: string | null = null
  do {
    const page = (await api("GET", `/v1/projects/p1/audit?limit=200${query}${cursor === null ? "" : `&cursor=${cursor}`}`)) as { data: Array<Entry>; nextCursor: string | null }
    out.push(...page.data)
    cursor = page.nextCursor
  } while (cursor !== null)
  return out
}

/** The entries of the log (the rows that open under an entry hold its change). */
const rows = () => page.locator("main table").first().locator("tbody tr:not(.change-row)")

beforeAll(async () => {
  server = await startSqliteServer("audit", { schedules: true })
  for (let i = 0; i < FLAGS; i++) await api("POST", "/v1/projects/p1/flags", { key: `flag-${i}`, type: "boolean", variations: BOOLEAN })
  await api("PUT", "/v1/projects/p1/flags/flag-1/targeting", { environment: "production", enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the audit log page", () => {
  it("shows the newest 50 entries, then older ones page by page, until it holds exactly what the API lists", async () => {
    await page.getByRole("link", { name: "Audit log" }).click()
    await page.getByRole("heading", { name: "Audit log" }).waitFor()
    await expect.poll(() => rows().count()).toBe(50)
    await checkPage(page, "audit-first-page")
    const all = await allEntries("")
    expect(all.length).toBeGreaterThan(FLAGS)
    // newest first: the targeting change made last heads the list
    expect(await rows().first().textContent()).toContain("targeting.updated")
    await page.getByRole("button", { name: "Show older" }).click()
    await expect.poll(() => rows().count()).toBe(all.length)
    expect(await page.getByRole("button", { name: "Show older" }).count()).toBe(0)
    expect(await rows().last().textContent()).toContain(all[all.length - 1]!.action)
  })

  it("narrows the log to one environment, as the API does", async () => {
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByRole("button", { name: "Show", exact: true }).click()
    const production = await allEntries("&environment=production")
    expect(production.length).toBeGreaterThan(0)
    await expect.poll(() => rows().count()).toBe(production.length)
    for (const text of await rows().allTextContents()) expect(text).toContain("production")
  })

  it("shows an entry's before and after as a diff, folding what did not change", async () => {
    const entry = rows().filter({ hasText: "targeting.updated" }).first()
    await entry.getByRole("button", { name: "Change" }).click()
    expect(await entry.getByRole("button", { name: "Change" }).getAttribute("aria-expanded")).toBe("true")
    const diff = page.getByRole("region", { name: "targeting.updated of flag-1" })
    await diff.waitFor()
    expect(await diff.locator(".diff-removed").allTextContents()).toContain('-       "enabled": false,\n')
    expect(await diff.locator(".diff-added").allTextContents()).toContain('+       "enabled": true,\n')
    expect(await diff.locator(".diff-folded").count()).toBeGreaterThan(0)
    await checkPage(page, "audit-diff")
  })
})

describe("a flag's history", () => {
  it("lists the flag's changes, a scheduled one with the schedule as its actor", async () => {
    await open(page, "#/flags/flag-2")
    await page.getByLabel("Environment", { exact: true }).selectOption("development")
    await page.getByLabel("Enabled in development").check()
    await page.getByLabel("Apply at (UTC)").fill(new Date(Date.now() + 3_000).toISOString().slice(0, 19))
    await page.getByRole("button", { name: "Schedule for development" }).click()
    await page.getByRole("button", { name: "Reload the current version" }).click({ timeout: 15_000 })
    await showSection(page, "History")
    const history = page.getByRole("region", { name: "History" })
    const applied = history.getByRole("row", { name: /targeting\.updated/ })
    await applied.waitFor()
    expect(await applied.textContent()).toMatch(/^.*schedule \(made with key /)
    expect(await applied.textContent()).toContain("development")
    const entries = await allEntries("&resourceType=flag&resourceKey=flag-2")
    expect(entries[0]).toMatchObject({ action: "targeting.updated", environment: "development", actor: { type: "schedule" } })
    expect(await history.locator("tbody tr").count()).toBe(entries.length)
    await checkPage(page, "flag-history")
  })
})
