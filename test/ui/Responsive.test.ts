/**
 * The dashboard on any screen, in a real browser against a real server on SQLite: at 360, 768 and
 * 1,440 px wide, every page (and every section of a flag's page) has no element past the right
 * edge (outside a box that scrolls on its own), no sideways page scroll, and no WCAG 2.1 A/AA
 * violation; every navigation link is reachable (behind the Menu button on a phone, which opens
 * and closes by keyboard); on a wide screen the content uses the width. Screenshots of every view
 * are written under test-results/dashboard/ and their paths printed.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, openSignedIn, showSection } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const LONG_KEY = "checkout-redesign-for-returning-customers-in-europe"
/** Every entry a global server key sees, in the navigation's order. */
const NAV = ["Flags", "Segments", "Environments", "Experiments", "Webhooks", "Playground", "Keys", "Audit log", "Schedules", "Change requests", "Members", "Users"]
const SECTIONS = ["Targeting", "Definition", "Schedules", "Release plans", "Evaluations", "History"]
const WIDTHS = [360, 768, 1440]
/** Below this width the navigation folds behind the Menu button (styles.css). */
const FOLDS_BELOW = 761

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

/**
 * The elements past the viewport's left or right edge, except inside a box that scrolls or clips
 * sideways on its own (a table's), and the page's own sideways scroll.
 */
const overflow = () =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const clipped = (el: Node) => {
      for (let p = el.parentElement; p !== null && p !== document.body; p = p.parentElement) {
        if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(p).overflowX)) return true
      }
      return false
    }
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id === "" ? "" : `#${el.id}`}${el.className === "" ? "" : `.${String(el.className).split(" ").join(".")}`} "${(el.textContent ?? "").trim().slice(0, 40)}"`
    const past: Array<string> = []
    // Everything past the right edge, clipped or not: what to look at when the page scrolls sideways.
    const anyPast: Array<string> = []
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const r = el.getBoundingClientRect()
      if (r.right > width + 1) anyPast.push(`${name(el)}: ${Math.round(r.left)}..${Math.round(r.right)}`)
      if (r.width === 0 || r.height === 0 || el.closest(".visually-hidden, .skip") !== null) continue
      if ((r.right > width + 1 || r.left < -1) && !clipped(el)) past.push(`${name(el)}: ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`)
    }
    // Text runs too: a long word can stick out of a box that itself fits.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const parent = node.parentElement!
      range.selectNodeContents(node)
      const r = range.getBoundingClientRect()
      if (r.width === 0 || r.right <= width + 1) continue
      anyPast.push(`text "${(node.textContent ?? "").trim().slice(0, 40)}" in ${name(parent)}: ${Math.round(r.left)}..${Math.round(r.right)}`)
      if (parent.closest(".visually-hidden, .skip") === null && !clipped(node)) past.push(`text "${(node.textContent ?? "").trim().slice(0, 40)}": ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`)
    }
    return { pageScroll: document.documentElement.scrollWidth - width, past, anyPast }
  })

const expectFits = async (view: string) => {
  const { pageScroll, past, anyPast } = await overflow()
  expect(past, `${view}: elements past the edge`).toEqual([])
  expect(pageScroll, `${view}: the page scrolls sideways; past the edge: ${anyPast.join("; ")}`).toBeLessThanOrEqual(0)
}

/** Checks the view (fits, axe-clean) and prints its screenshot's path. */
const checkView = async (width: number, view: string) => {
  await expectFits(`${view} at ${width} px`)
  const path = await checkPage(page, `responsive-${width}-${view}`)
  process.stdout.write(`screenshot: ${path}\n`)
}

const menuButton = () => page.getByRole("button", { name: "Menu" })
const nav = () => page.getByRole("navigation", { name: "Sections" })

/** Follows the navigation's link to `label`, opening the menu first where it is folded. */
const follow = async (width: number, label: string) => {
  if (width < FOLDS_BELOW) {
    await menuButton().click()
    expect(await menuButton().getAttribute("aria-expanded")).toBe("true")
  }
  await nav().getByRole("link", { name: label }).click()
  // The link now marks the current page (read from the DOM: on a phone the menu has folded away).
  await expect.poll(() => page.locator('#site-nav a[aria-current="page"]').textContent()).toMatch(new RegExp(`^${label}`))
  await page.locator("main h1").first().waitFor()
  // The page's own data is on screen (no "Loading…" left).
  await expect.poll(() => page.locator("main").getByText("Loading…").count()).toBe(0)
}

beforeAll(async () => {
  server = await startSqliteServer("responsive", { schedules: true })
  const variations = [{ key: "on", value: true }, { key: "off", value: false }]
  await api("POST", "/v1/projects/p1/flags", { key: LONG_KEY, name: "A flag with a long key", type: "boolean", variations })
  await api("POST", "/v1/projects/p1/flags", { key: "dark-mode", type: "boolean", variations })
  await api("PUT", `/v1/projects/p1/flags/${LONG_KEY}/targeting`, {
    environment: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [
      { name: "Beta customers in Europe", conditions: [{ attribute: "country", operator: "in", values: ["FR", "DE", "NL", "BE", "ES", "IT"] }], variationKey: "on" },
      { name: "Half of everyone else", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }
    ]
  })
  await api("POST", "/v1/projects/p1/segments", { key: "staff", name: "Staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }] })
  await api("POST", `/v1/projects/p1/flags/${LONG_KEY}/schedules`, {
    environment: "development",
    at: "2099-01-01T09:00:00Z",
    targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }
  })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe.each(WIDTHS)("at %i px wide", (width) => {
  it("reaches every navigation link", async () => {
    await page.setViewportSize({ width, height: 800 })
    await page.evaluate(() => (location.hash = "#/flags"))
    await page.locator("main h1").first().waitFor()
    const links = nav().getByRole("link")
    if (width < FOLDS_BELOW) {
      // folded: one button, the links hidden until it is pressed; Escape folds them again
      expect(await menuButton().isVisible()).toBe(true)
      expect(await menuButton().getAttribute("aria-expanded")).toBe("false")
      expect(await links.count()).toBe(0)
      await menuButton().focus()
      await page.keyboard.press("Enter")
      expect(await menuButton().getAttribute("aria-expanded")).toBe("true")
      await page.keyboard.press("Tab")
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Flags")
      await page.keyboard.press("Escape")
      expect(await menuButton().getAttribute("aria-expanded")).toBe("false")
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Menu")
      await menuButton().click()
    } else {
      expect(await menuButton().isVisible()).toBe(false)
    }
    expect(await links.allTextContents()).toEqual(NAV)
    for (const label of NAV) {
      const box = await nav().getByRole("link", { name: label }).boundingBox()
      expect(box, label).not.toBeNull()
      expect(box!.x, label).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(width)
    }
    await checkView(width, "navigation")
    if (width < FOLDS_BELOW) await menuButton().click()
  })

  it("fits every page on the screen, axe-clean", async () => {
    for (const label of NAV) {
      await follow(width, label)
      await checkView(width, label.toLowerCase().replace(/ /g, "-"))
      if (width < FOLDS_BELOW) expect(await menuButton().getAttribute("aria-expanded"), `${label}: the menu folds after a link`).toBe("false")
    }
  })

  it("fits every section of a flag's page, axe-clean", async () => {
    await page.evaluate((key) => (location.hash = `#/flags/${key}?environment=production`), LONG_KEY)
    await page.getByRole("form", { name: "Targeting in production" }).waitFor()
    for (const section of SECTIONS) {
      await showSection(page, section)
      await checkView(width, `flag-${section.toLowerCase()}`)
    }
  })
})

describe("a wide screen", () => {
  it("gives the content its width, centred, rather than a narrow column on the left", async () => {
    await page.setViewportSize({ width: 1920, height: 900 })
    await page.evaluate(() => (location.hash = "#/flags"))
    await page.locator("main h1").first().waitFor()
    const main = (await page.locator("main").boundingBox())!
    expect(main.width).toBeGreaterThan(1500)
    const left = main.x
    const right = 1920 - (main.x + main.width)
    expect(Math.abs(left - right)).toBeLessThanOrEqual(2)
  })
})
