/**
 * The dashboard goes live, in a real browser against a real server on SQLite, signed in with a
 * server key (so the events stream is read with fetch and the Authorization header): a change made
 * through the API appears on an open flags list and an open flag page within 2 s; a development
 * change does not block a staging save (the save names staging's configuration ETag); a staging
 * change made while the staging targeting is being edited is shown with who made it and their new
 * state, and can be taken into the editor instead of meeting a refused save. Axe-clean throughout.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const LIVE = "Changes made elsewhere show here as they happen."
const WITHIN = 2_000

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body as Record<string, any>
}
const flag = (key: string) => api("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
const targeting = (environment: string, enabled: boolean, rules: ReadonlyArray<unknown> = []) =>
  ({ environment, enabled, defaultVariationKey: "on", offVariationKey: "off", rules })

/** How long until `check` holds, polling every 25 ms; fails past `WITHIN`. */
const within = async (check: () => Promise<boolean>): Promise<number> => {
  const start = performance.now()
  while (performance.now() - start < WITHIN) {
    if (await check()) return Math.round(performance.now() - start)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`not within ${WITHIN} ms`)
}

const waitLive = () => page.getByText(LIVE).waitFor()

beforeAll(async () => {
  server = await startSqliteServer("live")
  await api("POST", "/v1/projects/p1/environments", { key: "staging", name: "Staging" })
  await flag("existing")
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("live changes on the dashboard", () => {
  it("a flag created and switched through the API appears on the open flags list within 2 s", async () => {
    await open(page, "#/flags")
    await page.getByRole("link", { name: "existing" }).waitFor()
    await waitLive()
    await flag("made-elsewhere")
    const appeared = await within(async () => (await page.getByRole("link", { name: "made-elsewhere", exact: true }).count()) === 1)
    await api("PUT", "/v1/projects/p1/flags/made-elsewhere/targeting", targeting("staging", true))
    const switched = await within(async () => (await page.getByRole("switch", { name: "made-elsewhere in staging" }).getAttribute("aria-checked")) === "true")
    console.log(`flags list: created after ${appeared} ms, switched after ${switched} ms`)
    await checkPage(page, "live-flags-list")
  })

  it("a change through the API appears on the open flag page within 2 s, with who made it", async () => {
    await flag("watched")
    await open(page, "#/flags/watched/targeting?environment=development")
    await page.getByRole("form", { name: "Targeting in development" }).waitFor()
    await waitLive()
    await api("PUT", "/v1/projects/p1/flags/watched/targeting", targeting("development", true))
    const shown = await within(async () => (await page.getByLabel("Enabled in development").isChecked()) && (await page.getByText("Version 2,").count()) === 1)
    expect(await page.locator(".live-change").textContent()).toMatch(/^Targeting in development changed by .+\.$/)
    console.log(`flag page: the API's change shown after ${shown} ms`)
    await checkPage(page, "live-flag-page")
  })

  it("a development change does not block a staging save in progress", async () => {
    await flag("two-people")
    await open(page, "#/flags/two-people/targeting?environment=staging")
    await page.getByRole("form", { name: "Targeting in staging" }).waitFor()
    await waitLive()
    await page.getByLabel("Enabled in staging").check()
    // Someone else changes development meanwhile: the page follows, the edit stays.
    await api("PUT", "/v1/projects/p1/flags/two-people/targeting", targeting("development", true))
    await within(async () => (await page.getByText("Version 2,").count()) === 1)
    expect(await page.getByLabel("Enabled in staging").isChecked()).toBe(true)
    expect(await page.getByRole("alert").count()).toBe(0)
    await page.getByRole("button", { name: "Save targeting in staging" }).click()
    await page.getByText("Targeting in staging saved (version 3).").waitFor()
    const stored = await api("GET", "/v1/projects/p1/flags/two-people")
    expect(stored.configs.map((c: any) => [c.environmentKey, c.enabled, c.version])).toEqual([
      ["development", true, 2],
      ["production", false, 1],
      ["staging", true, 3]
    ])
  })

  it("a staging change made while staging is being edited: their state, who and when, and taking it into the editor", async () => {
    await flag("contested")
    await open(page, "#/flags/contested/targeting?environment=staging")
    await page.getByRole("form", { name: "Targeting in staging" }).waitFor()
    await waitLive()
    await page.getByLabel("Enabled in staging").check()
    await api("PUT", "/v1/projects/p1/flags/contested/targeting", targeting("staging", false, [
      { name: "Beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" }
    ]))
    const notice = page.getByRole("alert").filter({ hasText: "You are editing the targeting in staging" })
    await within(async () => (await notice.count()) === 1)
    expect(await notice.textContent()).toMatch(/Targeting in staging changed by .+ You are editing the targeting in staging/)
    expect(await notice.getByRole("region", { name: "Their change to staging" }).textContent()).toContain("Beta")
    // The edit is still on screen until the person chooses.
    expect(await page.getByLabel("Enabled in staging").isChecked()).toBe(true)
    await checkPage(page, "live-flag-conflict")

    await notice.getByRole("button", { name: "Take their change into the editor" }).click()
    await within(async () => (await notice.count()) === 0)
    expect(await page.getByLabel("Enabled in staging").isChecked()).toBe(false)
    expect(await page.getByRole("form", { name: "Targeting in staging" }).getByLabel("Rule 1: name").inputValue()).toBe("Beta")
    // Made again on top of theirs, the save goes through.
    await page.getByLabel("Enabled in staging").check()
    await page.getByRole("button", { name: "Save targeting in staging" }).click()
    await page.getByText("Targeting in staging saved (version 3).").waitFor()
    const stored = await api("GET", "/v1/projects/p1/flags/contested")
    const staging = stored.configs.find((c: any) => c.environmentKey === "staging")
    expect([staging.enabled, staging.rules.map((r: any) => r.name)]).toEqual([true, ["Beta"]])
  })
})
