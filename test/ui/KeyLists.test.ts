/**
 * A segment's key lists on the Segments page, in a real browser against a real server on SQLite:
 * a CSV upload replaces the included list (the count follows, the server holds the keys), a bad
 * file is refused with the line the API names and changes nothing, a search finds one key and
 * says when a key is absent, keys are added and removed, and a viewer sees the counts and the
 * search but no upload or change; the segment form sets the attribute the lists match. Each view at 360 and 1,440 px: no sideways scroll, no axe
 * violation.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { makePerson, PASSWORD } from "../http/people.js"
import { checkPage, open, openSignedIn } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const WIDTHS = [360, 1440]
const LISTS = "/v1/projects/p1/segments/beta/keys"

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300)
  return reply
}

/** The keys the server holds in a list, sorted. */
const serverKeys = async (list: string): Promise<ReadonlyArray<string>> =>
  (await api("GET", `${LISTS}/${list}`)).text.split("\n").filter((k) => k !== "").sort()

const checkWidths = async (view: string) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(scroll, `${view} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0)
    process.stdout.write(`screenshot: ${await checkPage(page, `key-lists-${view}-${width}`)}\n`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

beforeAll(async () => {
  server = await startSqliteServer("key-lists")
  await api("POST", "/v1/projects/p1/segments", { key: "beta", name: "Beta testers", conditions: [] })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("a segment's key lists in the dashboard", () => {
  it("uploads a CSV, refuses a bad file by its line, searches, adds and removes keys", async () => {
    await open(page, "#/segments")
    await page.getByRole("button", { name: "Key lists of segment beta" }).click()
    const included = page.getByRole("region", { name: "Included keys" })
    await included.getByText("0 keys").waitFor()

    await included.getByLabel("File of included keys").setInputFiles({ name: "beta.csv", mimeType: "text/csv", buffer: Buffer.from("Name,Key\nAda,acct-1\nBo,acct-2\nCy,acct-3\n") })
    await included.getByRole("button", { name: "Replace included keys" }).click()
    await included.getByText("Included keys replaced from beta.csv: 3 keys.").waitFor()
    await included.getByText("3 keys", { exact: true }).waitFor()
    expect(await serverKeys("included")).toEqual(["acct-1", "acct-2", "acct-3"])

    // A key past 256 characters on line 2: refused with that line, the list as it was.
    await included.getByLabel("File of included keys").setInputFiles({ name: "bad.txt", mimeType: "text/plain", buffer: Buffer.from(`acct-7\n${"x".repeat(300)}\n`) })
    await included.getByRole("button", { name: "Replace included keys" }).click()
    const refusal = included.getByRole("alert")
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain("Line 2: the key must be at most 256 characters")
    expect(await serverKeys("included")).toEqual(["acct-1", "acct-2", "acct-3"])
    await checkWidths("refused")

    const search = async (key: string) => {
      await included.getByLabel("Find a key in included keys").fill(key)
      await included.getByRole("button", { name: "Search" }).click()
    }
    await search("acct-2")
    await included.getByText("acct-2 is in the included list.").waitFor()
    await search("acct-9")
    await included.getByText("acct-9 is not in the included list.").waitFor()

    await included.getByLabel("Keys to add to included keys").fill("acct-9, acct-10\n")
    await included.getByLabel("Keys to remove from included keys").fill("acct-1")
    await included.getByRole("button", { name: "Save changes to included keys" }).click()
    await included.getByText("2 added, 1 removed: 4 keys now.").waitFor()
    await included.getByText("4 keys", { exact: true }).waitFor()
    expect(await serverKeys("included")).toEqual(["acct-10", "acct-2", "acct-3", "acct-9"])
    await search("acct-10")
    await included.getByText("acct-10 is in the included list.").waitFor()

    // A change the API refuses (a key too long) shows its message and changes nothing.
    await included.getByLabel("Keys to add to included keys").fill("y".repeat(300))
    await included.getByRole("button", { name: "Save changes to included keys" }).click()
    await included.getByRole("alert").waitFor()
    expect(await serverKeys("included")).toEqual(["acct-10", "acct-2", "acct-3", "acct-9"])

    // The excluded list is its own.
    const excluded = page.getByRole("region", { name: "Excluded keys" })
    await excluded.getByLabel("Keys to add to excluded keys").fill("acct-3")
    await excluded.getByRole("button", { name: "Save changes to excluded keys" }).click()
    await excluded.getByText("1 key", { exact: true }).waitFor()
    expect(await serverKeys("excluded")).toEqual(["acct-3"])
    await checkWidths("changed")
  })

  it("the segment form sets which attribute the lists match; an empty name is refused at its field", async () => {
    await open(page, "#/segments")
    await page.getByRole("button", { name: "Edit segment beta" }).click()
    const form = page.getByRole("form", { name: "Edit segment beta" })
    const attribute = form.getByLabel("Key lists match attribute")
    expect(await attribute.inputValue()).toBe("key")
    await attribute.fill("")
    await form.getByRole("button", { name: "Save segment" }).click()
    await form.getByRole("alert").first().waitFor()
    expect(((await api("GET", "/v1/projects/p1/segments/beta")).body as { keyAttribute: string }).keyAttribute).toBe("key")
    await attribute.fill("accountId")
    await form.getByRole("button", { name: "Save segment" }).click()
    await page.getByText("lists match accountId").waitFor()
    expect(((await api("GET", "/v1/projects/p1/segments/beta")).body as { keyAttribute: string }).keyAttribute).toBe("accountId")
    await api("PATCH", "/v1/projects/p1/segments/beta", { keyAttribute: "key" })
  })

  it("shows a viewer the counts and the search, without upload or changes", async () => {
    const viewer = await server.run(makePerson("key-lists-viewer@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
    // A context of its own (its own cookies); left open: with one process, closing it ends the browser.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const other = await context.newPage()
    other.setDefaultTimeout(10_000)
    await other.goto(`${server.url}/ui/`)
    const form = other.getByRole("form", { name: "Sign in with email and password" })
    await form.getByLabel("Email").fill(viewer.email)
    await form.getByLabel("Password").fill(PASSWORD)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await other.locator("details.person-menu").waitFor()
    await open(other, "#/segments")
    await other.getByRole("button", { name: "Key lists of segment beta" }).click()
    const included = other.getByRole("region", { name: "Included keys" })
    await included.getByText(`${(await serverKeys("included")).length} keys`, { exact: true }).waitFor()
    await included.getByLabel("Find a key in included keys").fill("acct-2")
    await included.getByRole("button", { name: "Search" }).click()
    await included.getByText("acct-2 is in the included list.").waitFor()
    expect(await other.getByRole("button", { name: /^Replace / }).count()).toBe(0)
    expect(await other.getByRole("button", { name: /^Save changes to / }).count()).toBe(0)
    await checkPage(other, "key-lists-viewer")
  })
})
