/**
 * A global admin allows a single sign-on link from the Users page, in a real browser against a real
 * server on SQLite: a global admin's account is not opened by single sign-on until another global
 * admin presses "Allow SSO link" (`POST /v1/users/{id}/allow-sso-link`) and confirms; then its
 * next single sign-on with its email opens it. axe-core checks the view.
 */
import { Effect } from "effect"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SignIn } from "../../src/services/people/SignIn.js"
import type { TestServer } from "../http/fixtures.js"
import { makePerson, PASSWORD, type Person } from "../http/people.js"
import { checkPage, launch, open } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
let chief: Person

const CHIEF = "chief@example.com"
const policy = { allowedDomains: [], defaultRole: "none" as const }
/** The account a single sign-on with the chief's email opens, or the refusal's tag. */
const singleSignOn = (subject: string) =>
  server.run(Effect.map(
    Effect.either(Effect.flatMap(SignIn, (signIn) => signIn.withSso({ issuer: "https://id.example.com", subject, email: CHIEF, emailVerified: true }, policy))),
    (result) => (result._tag === "Right" ? result.right.id : result.left._tag)
  ))

beforeAll(async () => {
  server = await startSqliteServer("allow-sso-link")
  await server.run(makePerson("sso-admin@example.com", { admin: true }))
  chief = await server.run(makePerson(CHIEF, { admin: true }))
  browser = await launch()
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(10_000)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("allowing a single sign-on link on the Users page", () => {
  it("a global admin's account is opened by single sign-on only once another global admin allowed it", async () => {
    expect(await singleSignOn("chief-first")).toBe("Forbidden")
    await page.goto(`${server.url}/ui/`)
    const form = page.getByRole("form", { name: "Sign in with email and password" })
    await form.getByLabel("Email").fill("sso-admin@example.com")
    await form.getByLabel("Password").fill(PASSWORD)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.locator("details.person-menu").waitFor()
    await open(page, "#/users")
    await page.getByRole("button", { name: `Allow SSO link for ${CHIEF}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByText(`The next single sign-on of ${CHIEF} within 72 hours will open this account.`).waitFor()
    await checkPage(page, "users-sso-link-allowed")
    expect(await singleSignOn("chief-first")).toBe(chief.id)
    expect(await singleSignOn("someone-else")).toBe("Forbidden")
  })
})
