/**
 * The flags list of a large project in a real browser at 1,440 and 360 px: 1,231 flags come 50 to a
 * page in key order (never all at once), next and previous page walk them, and the search and type
 * filter go to the server, so they reach a flag on any page; axe finds no WCAG 2.1 A/AA violation
 * at either width. Below 600 px each flag is a card (nothing scrolls sideways, a card's switches
 * work); from 600 px on, the table. The server keeps its flags in memory: making 1,231 takes milliseconds there.
 */
import * as Effect from "effect/Effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Flags } from "../../src/services/flags/Flags.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"
import { checkPage, openSignedIn } from "./Browser.js"

const FLAGS = 1231
const keyOf = (i: number) => `flag-${String(i).padStart(4, "0")}`

let server: TestServer
let browser: Browser
let page: Page

const rows = () => page.locator("a.flag-key")
const shownKeys = () => page.locator("a.flag-key").allTextContents()
const status = () => page.getByRole("status").filter({ hasText: /^Flags \d|^No (more )?flags/ }).textContent()

/** The elements of the page's main part whose content is wider than they are (a box scrolling sideways), and the page's own sideways scroll. */
const sideways = () =>
  page.evaluate(() => ({
    boxes: Array.from(document.querySelectorAll("main *"))
      .filter((el) => el.scrollWidth > el.clientWidth + 1 && ["auto", "scroll"].includes(getComputedStyle(el).overflowX))
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className)}`),
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth
  }))

beforeAll(async () => {
  server = await startServer()
  await server.run(
    Effect.gen(function* () {
      const flags = yield* Flags
      for (let i = 0; i < FLAGS; i++) {
        // Created in reverse, so key order is not creation order.
        const n = FLAGS - 1 - i
        const text = n === 1230 ? { type: "string" as const, variations: [{ key: "a", value: "a" }, { key: "b", value: "b" }] } : { type: "boolean" as const, variations: [{ key: "on", value: true }, { key: "off", value: false }] }
        yield* flags.create("p1", { key: keyOf(n), name: n === 777 ? "Lucky checkout" : `Flag ${n}`, ...text })
      }
    })
  )
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe.each([1440, 360])("the flags list at %i px", (width) => {
  it(`shows ${FLAGS} flags 50 to a page, in key order, with next and previous page`, async () => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto(`${server.url}/ui/#/flags`)
    // A fresh list: no search or page left from the width before.
    await page.reload()
    await expect.poll(shownKeys).toEqual(Array.from({ length: 50 }, (_, i) => keyOf(i)))
    expect(await status()).toContain("Flags 1 to 50, more on the next page.")
    expect(await page.getByRole("button", { name: "Previous page" }).isDisabled()).toBe(true)
    await checkPage(page, `flags-paged-${width}`)
    await page.getByRole("button", { name: "Next page" }).click()
    await expect.poll(shownKeys).toEqual(Array.from({ length: 50 }, (_, i) => keyOf(50 + i)))
    expect(await status()).toContain("Flags 51 to 100")
    await page.getByRole("button", { name: "Previous page" }).click()
    await expect.poll(async () => (await shownKeys())[0]).toBe(keyOf(0))
    // The last page: 1,231 = 24 pages of 50 and one of 31.
    for (let i = 0; i < 24; i++) {
      const before = (await shownKeys())[0]
      await page.getByRole("button", { name: "Next page" }).click()
      await expect.poll(async () => (await shownKeys())[0]).not.toBe(before)
    }
    expect(await shownKeys()).toEqual(Array.from({ length: 31 }, (_, i) => keyOf(1200 + i)))
    expect(await status()).toContain("Flags 1201 to 1231.")
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true)
  })

  it("searches every flag on the server by key or name, and by type, from the first page", async () => {
    await page.getByLabel("Search by key or name").fill("123")
    await expect.poll(shownKeys).toEqual(["flag-0123", "flag-1123", "flag-1230"])
    expect(await status()).toContain("Flags 1 to 3.")
    await page.getByLabel("Search by key or name").fill("lucky CHECKOUT")
    await expect.poll(shownKeys).toEqual([keyOf(777)])
    await page.getByLabel("Search by key or name").fill("")
    await page.getByLabel("Type").selectOption("string")
    await expect.poll(shownKeys).toEqual([keyOf(1230)])
    await page.getByLabel("Search by key or name").fill("nothing like it")
    await expect.poll(status).toContain("No flags match.")
    expect(await rows().count()).toBe(0)
    await checkPage(page, `flags-search-${width}`)
    await page.getByLabel("Type").selectOption("")
    await page.getByLabel("Search by key or name").fill("")
    await expect.poll(async () => (await shownKeys()).length).toBe(50)
  })
})

describe("the flags list on a phone", () => {
  it("shows a card per flag below 600 px, where nothing scrolls sideways, and the table from 600 px on", async () => {
    for (const [width, cards] of [[360, true], [599, true], [600, false], [1440, false]] as const) {
      await page.setViewportSize({ width, height: 900 })
      await expect.poll(() => page.locator("li.flag-card").count(), { message: `${width} px` }).toBe(cards ? 50 : 0)
      expect(await page.locator("table.flags").count(), `${width} px`).toBe(cards ? 0 : 1)
      if (cards) expect(await sideways(), `${width} px`).toEqual({ boxes: [], page: 0 })
    }
    await page.setViewportSize({ width: 360, height: 900 })
    await page.locator("li.flag-card").first().waitFor()
    await checkPage(page, "flags-cards-360")
  })

  it("switches a flag from its card, and the API follows", async () => {
    const card = page.locator("li.flag-card").filter({ has: page.getByRole("link", { name: keyOf(3), exact: true }) })
    expect(await card.textContent()).toContain("boolean, version 1")
    const sw = card.getByRole("switch", { name: `${keyOf(3)} in development` })
    expect(await sw.getAttribute("aria-checked")).toBe("false")
    await sw.click()
    await expect.poll(() => sw.getAttribute("aria-checked")).toBe("true")
    const flag = await request(server.url, "GET", `/v1/projects/p1/flags/${keyOf(3)}`, { key: server.keys.global })
    expect((flag.body as { configs: Array<{ environmentKey: string; enabled: boolean }> }).configs.find((c) => c.environmentKey === "development")!.enabled).toBe(true)
    await checkPage(page, "flags-card-switched-360")
  })
})
