/**
 * The flag page in sections, in a real browser against a real server on SQLite: tabs with the
 * ARIA tab pattern (one selected, its panel shown, the others hidden; arrow keys, Home and End),
 * the section and the environment kept in the URL (a reload and back/forward restore them, a link
 * to a section opens it), and an edit in progress kept while another section is looked at. Then
 * the change before saving, as people read it, for a table of edits made in the editor, with the
 * JSON one click away, and what the save stored.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn, showSection } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const SECTIONS = ["Targeting", "Definition", "Schedules", "Release plans", "Evaluations", "History"]

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const hash = () => page.evaluate(() => location.hash)
const selectedTab = () => page.locator('[role="tab"][aria-selected="true"]').textContent()
const environment = () => page.getByLabel("Environment", { exact: true }).inputValue()
/** The panels shown (not hidden), by the label of the tab that controls each. */
const shownPanels = () =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[role="tabpanel"]')).filter((p) => !p.hidden).map((p) => document.getElementById(p.getAttribute("aria-labelledby")!)!.textContent)
  )

beforeAll(async () => {
  server = await startSqliteServer("sections")
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  await api("POST", "/v1/projects/p1/flags", { key: "banner", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  await api("PUT", "/v1/projects/p1/flags/banner/targeting", {
    environment: "development",
    enabled: false,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [
      { name: "Beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" },
      { name: "Half", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 25_000 }, { variationKey: "off", weight: 75_000 }] } }
    ]
  })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the flag page's sections", () => {
  it("opens on the targeting of the first environment, with the other sections one click away", async () => {
    await open(page, "#/flags/checkout")
    const tabs = page.getByRole("tablist", { name: "Sections of checkout" }).getByRole("tab")
    await tabs.first().waitFor()
    expect(await tabs.allTextContents()).toEqual(SECTIONS)
    expect(await selectedTab()).toBe("Targeting")
    expect(await shownPanels()).toEqual(["Targeting"])
    expect(await environment()).toBe("development")
    await page.getByRole("form", { name: "Targeting in development" }).waitFor()
    // each tab controls its panel, which is labelled by the tab
    for (const name of SECTIONS) {
      const tab = page.getByRole("tab", { name, exact: true })
      const panel = page.locator(`#${await tab.getAttribute("aria-controls")}`)
      expect(await panel.getAttribute("role")).toBe("tabpanel")
      expect(await panel.getAttribute("aria-labelledby")).toBe(await tab.getAttribute("id"))
    }
    // only the selected tab is in the Tab order
    expect(await page.locator('[role="tab"][tabindex="0"]').count()).toBe(1)
    await checkPage(page, "flag-sections-targeting")
  })

  it("keeps the section and the environment in the URL: a reload and back/forward restore them", async () => {
    await showSection(page, "Definition")
    expect(await hash()).toBe("#/flags/checkout/definition?environment=development")
    await page.getByRole("form", { name: "Flag definition" }).waitFor()
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await expect.poll(hash).toBe("#/flags/checkout/definition?environment=production")
    expect(await selectedTab()).toBe("Definition")
    await showSection(page, "History")
    expect(await hash()).toBe("#/flags/checkout/history?environment=production")
    await checkPage(page, "flag-sections-history")

    await page.reload()
    await page.getByRole("tab", { name: "History", exact: true }).waitFor()
    expect(await selectedTab()).toBe("History")
    expect(await environment()).toBe("production")
    expect(await shownPanels()).toEqual(["History"])

    await page.goBack()
    await expect.poll(selectedTab).toBe("Definition")
    expect(await environment()).toBe("production")
    await page.goBack()
    await expect.poll(environment).toBe("development")
    expect(await selectedTab()).toBe("Definition")
    await page.goForward()
    await expect.poll(environment).toBe("production")
    expect(await selectedTab()).toBe("Definition")
  })

  it("opens the section and environment a link names, and the first environment for one that is gone", async () => {
    await open(page, "#/flags/checkout/evaluations?environment=development")
    await expect.poll(environment).toBe("development")
    expect(await selectedTab()).toBe("Evaluations")
    await page.getByRole("region", { name: "Evaluations in development" }).waitFor()
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await open(page, "#/flags/checkout/targeting?environment=no-such-place")
    await expect.poll(selectedTab).toBe("Targeting")
    await expect.poll(environment).toBe("development")
  })

  it("moves between tabs with the arrow keys, Home and End, selecting as it goes", async () => {
    await open(page, "#/flags/checkout")
    await expect.poll(selectedTab).toBe("Targeting")
    await page.getByRole("tab", { name: "Targeting" }).focus()
    await page.keyboard.press("ArrowRight")
    await expect.poll(selectedTab).toBe("Definition")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Definition")
    await page.keyboard.press("End")
    await expect.poll(selectedTab).toBe("History")
    await page.keyboard.press("ArrowRight")
    await expect.poll(selectedTab).toBe("Targeting")
    await page.keyboard.press("ArrowLeft")
    await expect.poll(selectedTab).toBe("History")
    await page.keyboard.press("Home")
    await expect.poll(selectedTab).toBe("Targeting")
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("tab")
    // Tab leaves the tab list for the panel
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("tabpanel")
  })

  it("keeps an edit in progress while another section is looked at", async () => {
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByLabel("Enabled in production").check()
    await showSection(page, "Schedules")
    await showSection(page, "Targeting")
    expect(await page.getByLabel("Enabled in production").isChecked()).toBe(true)
    expect(await page.getByRole("button", { name: "Save targeting in production" }).isEnabled()).toBe(true)
  })
})

describe("the change before saving, as people read it", () => {
  /** Each edit made in the editor, and the line it adds to the change shown. */
  const EDITS: ReadonlyArray<{ readonly edit: () => Promise<unknown>; readonly line: string }> = [
    { edit: () => page.getByLabel("Enabled in development").check(), line: "Turned on (was off)" },
    { edit: () => page.getByLabel("Default variation (no rule matches)").selectOption("on"), line: "Default variation: off → on" },
    {
      edit: async () => {
        await page.getByRole("button", { name: "Add value" }).first().click()
        await page.getByLabel("Rule 1 condition 1: value 2").fill("pro")
      },
      line: "Rule 1 'Beta': plan in [beta] → plan in [beta, pro]"
    },
    {
      edit: async () => {
        await page.getByLabel("Rule 2: percentage for on").fill("50")
        await page.getByLabel("Rule 2: percentage for off").fill("50")
      },
      line: "Rule 2 'Half': rollout on 25% → 50%"
    },
    { edit: () => page.getByRole("button", { name: "Add rule" }).click(), line: "Rule 3 added: everyone, serve on" }
  ]

  it("lists each change in words as it is made, with the JSON one click away, and saves it", async () => {
    await open(page, "#/flags/banner?environment=development")
    const preview = page.getByRole("region", { name: "Change to development" })
    await preview.getByText("No change yet.").waitFor()
    const expected: Array<string> = []
    for (const { edit, line } of EDITS) {
      await edit()
      expected.push(line)
      // The rollout's second share arrives with its own line (off 75% → 50%), in its place.
      const lines = async () => (await preview.locator(".changes li").allTextContents()).map((t) => t.replace(/^[+−~](Added|Removed|Changed): /, ""))
      await expect.poll(async () => (await lines()).filter((l) => !l.includes("rollout off"))).toEqual(expected)
    }
    expect(await preview.locator(".changes li").allTextContents()).toContain("~Changed: Rule 2 'Half': rollout off 75% → 50%")
    const json = preview.getByRole("region", { name: "Change to development, as JSON" })
    expect(await json.isVisible()).toBe(false)
    await preview.getByText("Show the change as JSON").click()
    await json.waitFor()
    expect(await json.locator(".diff-added").allTextContents()).toContain('+   "enabled": true,\n')
    await checkPage(page, "flag-change-in-words")
    await page.getByRole("button", { name: "Save targeting in development" }).click()
    await page.getByText(/^Targeting in development saved/).waitFor()
    const saved = ((await api("GET", "/v1/projects/p1/flags/banner")) as { configs: Array<{ environmentKey: string; enabled: boolean; rules: Array<{ conditions: Array<{ values: Array<string> }> }> }> }).configs.find((c) => c.environmentKey === "development")!
    expect(saved.enabled).toBe(true)
    expect(saved.rules).toHaveLength(3)
    expect(saved.rules[0]!.conditions[0]!.values).toEqual(["beta", "pro"])
    await page.getByRole("region", { name: "Change to development" }).getByText("No change yet.").waitFor()
  })
})
