/**
 * The keys page names who made each key (the API's `createdBy`), in a real browser against a real
 * server on SQLite: a key a project admin made shows that person, one made with the operator's
 * key shows none recorded, and once the maker is removed from the project their key shows revoked
 * (with the maker still named). axe-core checks the view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { asPerson, makePerson, type Person } from "../http/people.js"
import { checkPage, open, openSignedIn } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
let maker: Person

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300)
  return reply.body
}

beforeAll(async () => {
  server = await startSqliteServer("key-makers")
  maker = await server.run(makePerson("key-maker@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** The "Made by" cell of the key named `name`. */
const madeBy = (name: string) => page.getByRole("row", { name: new RegExp(`^${name} `) }).getByRole("cell").nth(3)

describe("who made each key, on the keys page", () => {
  it("names the person who made a key, none for the operator's, and keeps naming them once the key is revoked with them", async () => {
    const made = await asPerson(server.url, maker.cookie, "POST", "/v1/projects/p1/keys", { type: "client", name: "Storefront" })
    expect(made.status, made.text).toBe(201)
    await api("POST", "/v1/projects/p1/keys", { type: "client", name: "Kiosk" })
    await open(page, "#/keys")
    await expect.poll(() => madeBy("Storefront").textContent()).toBe("key-maker@example.com")
    expect(await page.getByRole("columnheader", { name: "Made by" }).count()).toBe(1)
    expect(await madeBy("Kiosk").textContent()).toBe("not recorded")
    await checkPage(page, "keys-made-by")

    // Removed from the project, the maker's key is revoked; the page still says who made it.
    const users = (await api("GET", "/v1/users")) as { data: Array<{ id: string; email: string }> }
    const makerId = users.data.find((u) => u.email === "key-maker@example.com")!.id
    const removed = await asPerson(server.url, (await server.run(makePerson("key-admin@example.com", { admin: true }))).cookie, "DELETE", `/v1/projects/p1/members/${makerId}`)
    expect(removed.status, removed.text).toBeLessThan(300)
    await page.reload()
    await open(page, "#/keys")
    await expect.poll(() => page.getByRole("row", { name: /^Storefront / }).getAttribute("class")).toBe("revoked")
    // No longer a member and the viewer no global admin: the id, which the API keeps.
    expect(await madeBy("Storefront").textContent()).toBe(makerId)
  })
})
