/**
 * A global admin unlocks a locked-out person from the Users page, in a real browser against a real
 * server on SQLite: after 10 failed sign-ins from one address even the right password is refused
 * (429); the admin's "Unlock" clears the failures (`POST /v1/users/{id}/unlock`) and the person
 * signs in. axe-core checks the view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIGN_IN_FAILURE_LIMIT } from "../../src/domain/people/SignInLimit.js"
import { request, type TestServer } from "../http/fixtures.js"
import { makePerson, PASSWORD } from "../http/people.js"
import { checkPage, launch, open } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const LOCKED = "locked-out@example.com"
const login = (email: string, password: string) => request(server.url, "POST", "/v1/auth/login", { body: { email, password } })

beforeAll(async () => {
  server = await startSqliteServer("unlock")
  await server.run(makePerson("unlock-admin@example.com", { admin: true }))
  await server.run(makePerson(LOCKED, { projects: [{ projectId: "p1", role: "viewer" }] }))
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(10_000)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("unlocking a person on the Users page", () => {
  it("a global admin clears a locked-out person's failed sign-ins, and the right password works again", async () => {
    for (let i = 0; i < SIGN_IN_FAILURE_LIMIT; i++) expect((await login(LOCKED, "a guess that is wrong")).status).toBe(401)
    expect((await login(LOCKED, PASSWORD)).status).toBe(429)

    await page.goto(`${server.url}/ui/`)
    const form = page.getByRole("form", { name: "Sign in with email and password" })
    await form.getByLabel("Email").fill("unlock-admin@example.com")
    await form.getByLabel("Password").fill(PASSWORD)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.locator("details.person-menu").waitFor()
    await open(page, "#/users")
    await page.getByRole("button", { name: `Unlock ${LOCKED}: clear failed sign-ins` }).click()
    await page.getByText(`The failed sign-ins of ${LOCKED} are cleared: they can sign in with their password again.`).waitFor()
    await checkPage(page, "users-unlocked")
    expect((await login(LOCKED, PASSWORD)).status).toBe(200)
  })
})
