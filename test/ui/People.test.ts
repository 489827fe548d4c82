/**
 * People in the dashboard, in a real browser against a real server on SQLite: the first admin
 * opens a setup link and chooses a password, signs out and in with email and password, invites a
 * teammate as a viewer of p1 and copies the link; the teammate opens it, sets a password and sees
 * only what a viewer may (no switches, no editing, no admin pages, the API's refusal when an admin
 * page is opened anyway); as an editor they change a flag and the audit log names them; a role
 * shrunk while the page is open (the refusal shows, the controls follow) and a person disabled
 * while it is open (back to sign-in with the API's message); the admin's Members and Users pages
 * change roles, remove, disable and reset. Each step is checked
 * through the HTTP API; axe-core checks every new view; no CSP violation is reported.
 *
 * One page for the whole file (Browser.ts): the people take turns, signing out in between.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"
import { request, type TestServer } from "../http/fixtures.js"
import { setRole } from "../http/people.js"
import { checkPage, launch, open, watchedPage } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

const ADMIN = { email: "ada@example.com", name: "Ada Admin", password: "correct horse battery" }
const VIEWER = { email: "vera@example.com", name: "Vera Viewer", password: "staple of twelve chars" }
/** The link the dashboard showed Ada for Vera, read from the page. */
let veraLink: string

const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

interface UserBody {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly admin: boolean
  readonly disabledAt: string | null
}

/** An API call with the global key (the test's own view of the server, not the page's). */
const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const userByEmail = async (email: string): Promise<UserBody> => {
  const users = (await api("GET", "/v1/users")) as { data: Array<UserBody> }
  return users.data.find((u) => u.email === email)!
}

/** The setup link's path on this test server (the link names the server's public address). */
const onThisServer = (link: string): string => {
  const url = new URL(link)
  expect(url.pathname).toBe("/ui/setup")
  expect(url.hash).toMatch(/^#token=./)
  expect(url.search).toBe("")
  return `${server.url}${url.pathname}${url.hash}`
}

/** What `GET /v1/me` answers the page (its cookie is HttpOnly: only a request can tell). */
const meStatus = () => page.evaluate(async () => (await fetch("/v1/me", { cache: "no-store" })).status)

const signInWithPassword = async (email: string, password: string) => {
  const form = page.getByRole("form", { name: "Sign in with email and password" })
  await form.getByLabel("Email").fill(email)
  await form.getByLabel("Password").fill(password)
  await form.getByRole("button", { name: "Sign in", exact: true }).click()
}

const personMenu = () => page.locator("details.person-menu")

const signOut = async () => {
  const menu = personMenu()
  if ((await menu.getAttribute("open")) === null) await menu.locator("summary").click()
  await menu.getByRole("button", { name: "Sign out" }).click()
  await page.getByRole("form", { name: "Sign in with email and password" }).waitFor()
}

const setPassword = async (link: string, password: string) => {
  await page.goto(onThisServer(link))
  const form = page.getByRole("form", { name: "Choose your password" })
  await form.getByLabel("New password").fill(password)
  await form.getByLabel("Confirm the password").fill(password)
  await form.getByRole("button", { name: "Set password and sign in" }).click()
}

const navLabels = () => page.getByRole("navigation", { name: "Sections" }).getByRole("link").allTextContents()

beforeAll(async () => {
  server = await startSqliteServer("people")
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: BOOLEAN })
  await api("POST", "/v1/projects/p2/flags", { key: "secret-plan", type: "boolean", variations: BOOLEAN })
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("people in the dashboard", () => {
  it("sets the first admin's password from a setup link, checking length and confirmation first, and signs them in", async () => {
    const invited = (await api("POST", "/v1/users", { email: ADMIN.email, name: ADMIN.name, admin: true })) as { setupUrl: string }
    await page.goto(onThisServer(invited.setupUrl))
    const form = page.getByRole("form", { name: "Choose your password" })
    await form.waitFor()
    await checkPage(page, "people-setup")
    await form.getByLabel("New password").fill("too short")
    await form.getByLabel("Confirm the password").fill("too shorter")
    await form.getByRole("button", { name: "Set password and sign in" }).click()
    await expect.poll(() => form.getByLabel("New password").getAttribute("aria-invalid")).toBe("true")
    expect(await form.getByLabel("Confirm the password").getAttribute("aria-invalid")).toBe("true")
    expect(await form.getByRole("alert").textContent()).toContain("must be at least 12 characters")
    await checkPage(page, "people-setup-problems")
    await form.getByLabel("New password").fill(ADMIN.password)
    await form.getByLabel("Confirm the password").fill(ADMIN.password)
    await form.getByRole("button", { name: "Set password and sign in" }).click()
    await personMenu().waitFor()
    // the token leaves the address once spent, and the cookie it set is the session
    expect(new URL(page.url()).pathname).toBe("/ui/")
    expect(new URL(page.url()).hash).not.toContain("token")
    expect(await personMenu().locator("summary").textContent()).toContain(ADMIN.name)
    expect(await meStatus()).toBe(200)
    expect(await navLabels()).toEqual(expect.arrayContaining(["Members", "Users", "Keys", "Webhooks"]))
    // a spent link is refused with the API's message
    await page.goto(onThisServer(invited.setupUrl))
    const again = page.getByRole("form", { name: "Choose your password" })
    await again.getByLabel("New password").fill(ADMIN.password)
    await again.getByLabel("Confirm the password").fill(ADMIN.password)
    await again.getByRole("button", { name: "Set password and sign in" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Setup link is invalid or has expired")
  })

  it("signs out (the session ends on the server) and in again with email and password; a wrong password gets the API's message", async () => {
    await page.goto(`${server.url}/ui/`)
    await personMenu().waitFor()
    await checkPage(page, "people-signed-in")
    await signOut()
    expect(await meStatus()).toBe(401)
    await checkPage(page, "people-sign-in")
    // no single sign-on configured: no button for it
    expect(await page.getByRole("link", { name: /Sign in with/ }).count()).toBe(0)
    // where single sign-on sends a person back: its own reasons shown, anything else in general words
    await page.goto(`${server.url}/ui/signin?error=${encodeURIComponent(SIGN_IN_REFUSALS.accountDisabled)}`)
    await expect.poll(() => page.getByRole("alert").textContent()).toBe(SIGN_IN_REFUSALS.accountDisabled)
    await checkPage(page, "people-sign-in-refused")
    await page.goto(`${server.url}/ui/signin?error=${encodeURIComponent("Call 0800 now to keep your account")}`)
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Single sign-on did not sign you in. Please try again.")
    await signInWithPassword(ADMIN.email, "not the password at all")
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Invalid email or password")
    await signInWithPassword(ADMIN.email.toUpperCase(), ADMIN.password)
    await personMenu().waitFor()
    expect(new URL(page.url()).pathname).toBe("/ui/")
    expect(new URL(page.url()).search).toBe("")
    expect(await meStatus()).toBe(200)
    // a reload asks the server who this is: still signed in
    await page.reload()
    await personMenu().waitFor()
  })

  it("invites a person as a viewer of p1 and shows the setup link to copy", async () => {
    await page.getByLabel("Project").selectOption("p1")
    await open(page, "#/users")
    await page.getByRole("heading", { name: "Users" }).waitFor()
    const form = page.getByRole("form", { name: "Invite a person" })
    await form.getByLabel("Email").fill(VIEWER.email)
    await form.getByLabel("Name").fill(VIEWER.name)
    await form.getByLabel("Project p1 (p1)").selectOption("viewer")
    await form.getByRole("button", { name: "Invite" }).click()
    const shown = page.getByRole("region", { name: `Invitation for ${VIEWER.email}` })
    await shown.waitFor()
    veraLink = await shown.getByLabel("Setup link").inputValue()
    expect(onThisServer(veraLink)).toContain("#token=")
    await checkPage(page, "people-users-invited")
    await page.getByRole("row", { name: new RegExp(VIEWER.email) }).waitFor()
    const vera = await userByEmail(VIEWER.email)
    expect(vera).toMatchObject({ name: VIEWER.name, admin: false, disabledAt: null })
    const members = (await api("GET", "/v1/projects/p1/members")) as { data: Array<{ user: { email: string }; role: string }> }
    expect(members.data.map((m) => [m.user.email, m.role])).toContainEqual([VIEWER.email, "viewer"])
    // an email already taken: the API's refusal on the form
    await form.getByLabel("Email").fill(VIEWER.email.toUpperCase())
    await form.getByRole("button", { name: "Invite" }).click()
    await expect.poll(() => form.getByRole("alert").count()).toBe(1)
    await signOut()
  })

  it("the invited viewer sets a password from the link and sees only what a viewer may", async () => {
    await setPassword(veraLink, VIEWER.password)
    await personMenu().waitFor()
    expect(await personMenu().locator("summary").textContent()).toContain(VIEWER.name)
    // one project: chosen at once; p2 is not theirs
    expect(await page.getByText("Project: p1").count()).toBe(1)
    expect(await navLabels()).toEqual(["Flags", "Segments", "Environments", "Experiments", "Audit log", "Schedules", "Change requests"])
    await page.getByRole("link", { name: "checkout" }).waitFor()
    expect(await page.getByRole("switch").count()).toBe(0)
    expect(await page.getByRole("button", { name: "New flag" }).count()).toBe(0)
    await checkPage(page, "people-viewer-flags")
    await page.getByRole("link", { name: "checkout" }).click()
    await page.getByText("Read only: your role (viewer) does not allow changes in this project.").first().waitFor()
    expect(await page.getByRole("button", { name: /Save targeting/ }).isDisabled()).toBe(true)
    expect(await page.getByRole("form", { name: "Copy to another environment" }).count()).toBe(0)
    await checkPage(page, "people-viewer-flag")
    await open(page, "#/segments")
    await page.getByRole("heading", { name: "Segments" }).waitFor()
    expect(await page.getByRole("button", { name: "New segment" }).count()).toBe(0)
    await open(page, "#/environments")
    await page.getByRole("heading", { name: "Environments" }).waitFor()
    await page.getByRole("cell", { name: "Production", exact: true }).waitFor()
    expect(await page.getByRole("form", { name: "New environment" }).count()).toBe(0)
    expect(await page.getByRole("form", { name: "Copy all flags" }).count()).toBe(0)
    // an admin page opened anyway: the API's refusal is what shows
    await open(page, "#/members")
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Your role in this project does not allow this")
    await checkPage(page, "people-viewer-refused")
    // and the API agrees with the page about writes
    const write = await page.evaluate(async () =>
      (await fetch("/v1/projects/p1/flags", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ key: "sneaky", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] }) })).status
    )
    expect(write).toBe(403)
  })

  it("as an editor, switches a flag, and the audit log names the person; no admin pages still", async () => {
    const vera = await userByEmail(VIEWER.email)
    await server.run(setRole("p1", vera.id, "editor"))
    // the page reads the roles when it loads (and again after a refusal)
    await page.goto(`${server.url}/ui/#/flags`)
    await page.reload()
    const flagSwitch = page.getByRole("switch", { name: "checkout in development" })
    await flagSwitch.click()
    await expect.poll(() => flagSwitch.getAttribute("aria-checked")).toBe("true")
    expect(await navLabels()).not.toContain("Members")
    expect(await navLabels()).not.toContain("Keys")
    await open(page, "#/environments")
    await page.getByRole("form", { name: "Copy all flags" }).waitFor()
    expect(await page.getByRole("form", { name: "New environment" }).count()).toBe(0)
    const audit = (await api("GET", "/v1/projects/p1/audit?resourceType=flag&resourceKey=checkout")) as { data: Array<{ actor: { type: string; email?: string } }> }
    expect(audit.data[0]!.actor).toMatchObject({ type: "user", email: VIEWER.email })
    await open(page, "#/audit")
    await page.getByRole("cell", { name: VIEWER.email }).first().waitFor()
  })

  it("when the role shrinks while the page is open, a switch gets the API's refusal and the controls follow the new role", async () => {
    const vera = await userByEmail(VIEWER.email)
    await open(page, "#/flags")
    const flagSwitch = page.getByRole("switch", { name: "checkout in development" })
    await flagSwitch.waitFor()
    await server.run(setRole("p1", vera.id, "viewer"))
    await flagSwitch.click()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Your role in this project does not allow this")
    await expect.poll(() => page.getByRole("switch").count()).toBe(0)
    expect(await page.getByRole("button", { name: "New flag" }).count()).toBe(0)
    await server.run(setRole("p1", vera.id, "editor"))
  })

  it("when the person is disabled while the page is open, the next request goes back to sign-in with the API's message", async () => {
    const vera = await userByEmail(VIEWER.email)
    await api("PATCH", `/v1/users/${vera.id}`, { disabled: true })
    await open(page, "#/segments")
    await page.getByRole("form", { name: "Sign in with email and password" }).waitFor()
    expect(await page.getByRole("alert").textContent()).toMatch(/session/i)
    expect(await meStatus()).toBe(401)
    // a disabled person cannot sign in again: the same message as a wrong password
    await signInWithPassword(VIEWER.email, VIEWER.password)
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Invalid email or password")
    await api("PATCH", `/v1/users/${vera.id}`, { disabled: false })
  })

  it("the admin's Members page changes a role and removes a member; the Users page renames, resets and disables", async () => {
    await signInWithPassword(ADMIN.email, ADMIN.password)
    await personMenu().waitFor()
    await page.getByLabel("Project").selectOption("p1")
    await open(page, "#/members")
    await page.getByRole("heading", { name: "Members" }).waitFor()
    const role = page.getByLabel(`Role of ${VIEWER.email}`)
    expect(await role.inputValue()).toBe("editor")
    await checkPage(page, "people-members")
    await role.selectOption("viewer")
    await expect.poll(() => page.locator("p.status").textContent()).toContain("is now viewer")
    const vera = await userByEmail(VIEWER.email)
    const roleOf = async () =>
      ((await api("GET", "/v1/projects/p1/members")) as { data: Array<{ user: { id: string }; role: string }> }).data.find((m) => m.user.id === vera.id)?.role
    expect(await roleOf()).toBe("viewer")
    await page.getByRole("button", { name: `Remove ${VIEWER.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await expect.poll(roleOf).toBeUndefined()
    // added back by a global admin from the list of users
    const add = page.getByRole("form", { name: "Add a member" })
    await add.getByLabel("Person").selectOption(vera.id)
    await add.getByLabel("Role").selectOption("editor")
    await add.getByRole("button", { name: "Add member" }).click()
    await expect.poll(roleOf).toBe("editor")

    await open(page, "#/users")
    await page.getByRole("button", { name: `Rename ${VIEWER.email}` }).click()
    await page.getByLabel(`Name of ${VIEWER.email}`).fill("Vera Editor")
    await page.getByRole("button", { name: "Save name" }).click()
    await expect.poll(async () => (await userByEmail(VIEWER.email)).name).toBe("Vera Editor")
    await page.getByRole("button", { name: `Reset password of ${VIEWER.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    const reset = page.getByRole("region", { name: `New setup link for ${VIEWER.email}` })
    await reset.waitFor()
    expect(onThisServer(await reset.getByLabel("Setup link").inputValue())).toContain("#token=")
    await page.getByRole("button", { name: `Disable ${VIEWER.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await expect.poll(async () => (await userByEmail(VIEWER.email)).disabledAt).not.toBeNull()
    await page.getByRole("button", { name: `Enable ${VIEWER.email}` }).waitFor()
    await page.getByRole("button", { name: `Make admin: ${VIEWER.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await expect.poll(async () => (await userByEmail(VIEWER.email)).admin).toBe(true)
    await page.getByRole("button", { name: `Remove admin: ${VIEWER.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await expect.poll(async () => (await userByEmail(VIEWER.email)).admin).toBe(false)
    // the admin cannot disable themselves nor drop their own flag: the API's 409 is shown
    await page.getByRole("button", { name: `Disable ${ADMIN.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("You cannot disable yourself")
    expect((await userByEmail(ADMIN.email)).disabledAt).toBeNull()
    await page.getByRole("button", { name: `Remove admin: ${ADMIN.email}` }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("You cannot remove your own admin flag")
    expect((await userByEmail(ADMIN.email)).admin).toBe(true)
    await checkPage(page, "people-users")
  })

  it("keeps the server-key sign-in as the secondary way in", async () => {
    await signOut()
    await page.getByLabel("Server key").fill(server.keys.scoped)
    await page.getByRole("button", { name: "Sign in with the key" }).click()
    // a key sees every control and the API judges it: a project's key is no global admin
    await page.getByRole("heading", { name: "Users" }).waitFor()
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not authorized")
    expect(await navLabels()).toEqual(expect.arrayContaining(["Keys", "Members", "Playground"]))
    await open(page, "#/flags")
    await page.getByRole("heading", { name: "Flags" }).waitFor()
    expect(await page.getByRole("switch").count()).toBeGreaterThan(0)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Server key").waitFor()
    expect(cspViolations).toEqual([])
  })
})
