/**
 * Protected environments and change requests in the dashboard, in a real browser against a real
 * server on SQLite: a project admin protects production on the Environments page; an editor's
 * switch on the flags list proposes rather than flips, and the targeting editor's save becomes
 * "Propose change"; the author cannot approve their own request but may cancel it; the admin
 * approves and applies it, and the audit log tells the story (the opening by the editor, the
 * approval, the flag's change by the admin through the request); a flag that moved on is named
 * when the request is applied, and its author brings the request up to date; a server key still
 * saves directly; a proposal may carry an apply time, and its author edits an open request's
 * title, description and time (its changes untouched, its approvals cleared). Each step is checked
 * through the HTTP API; axe-core checks every new view; no CSP violation is reported.
 *
 * One page for the whole file (Browser.ts): the people take turns, signing out in between.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Effect from "effect/Effect"
import { ChangeRequests } from "../../src/services/changes/ChangeRequests.js"
import { request, type TestServer } from "../http/fixtures.js"
import { setRole } from "../http/people.js"
import { checkPage, launch, open, watchedPage } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

const ADMIN = { email: "ada@example.com", name: "Ada Admin", password: "correct horse battery" }
const EDITOR = { email: "eddie@example.com", name: "Eddie Editor", password: "staple of twelve chars" }
const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

interface Targeting {
  readonly enabled: boolean
  readonly defaultVariationKey: string
}
interface ChangeRequestBody {
  readonly id: string
  readonly title: string
  readonly description: string | null
  readonly applyAt: string | null
  readonly status: string
  readonly approvals: ReadonlyArray<unknown>
  readonly changes: ReadonlyArray<{ flagKey: string; baseVersion: number; after: Targeting }>
}
interface FlagBody {
  readonly version: number
  readonly configs: ReadonlyArray<Targeting & { environmentKey: string }>
}

/** An API call with the global key (the test's own view of the server, not the page's). */
const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const changeRequests = async () => ((await api("GET", "/v1/projects/p1/change-requests")) as { data: Array<ChangeRequestBody> }).data
const byTitle = async (title: string) => (await changeRequests()).find((r) => r.title === title)
const checkout = async () => (await api("GET", "/v1/projects/p1/flags/checkout")) as FlagBody
const inProduction = async () => (await checkout()).configs.find((c) => c.environmentKey === "production")!

/** A person with a password, a member of p1 with `role`. */
const person = async (who: typeof ADMIN, role: string) => {
  const invited = (await api("POST", "/v1/users", { email: who.email, name: who.name, projects: [{ projectId: "p1", role }] })) as { setupUrl: string }
  const token = new URL(invited.setupUrl).hash.replace(/^#token=/, "")
  const set = await request(server.url, "POST", "/v1/auth/setup", { body: { token, password: who.password } })
  expect(set.status, set.text).toBe(200)
}

const personMenu = () => page.locator("details.person-menu")

const signInAs = async (who: typeof ADMIN) => {
  const form = page.getByRole("form", { name: "Sign in with email and password" })
  await form.getByLabel("Email").fill(who.email)
  await form.getByLabel("Password").fill(who.password)
  await form.getByRole("button", { name: "Sign in", exact: true }).click()
  await personMenu().waitFor()
}

const signOut = async () => {
  const menu = personMenu()
  if ((await menu.getAttribute("open")) === null) await menu.locator("summary").click()
  await menu.getByRole("button", { name: "Sign out" }).click()
  await page.getByRole("form", { name: "Sign in with email and password" }).waitFor()
}

const confirm = () => page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()

const navEntry = () => page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: /Change requests/ })

/** A change request on its page, by its title. */
const card = (title: string) => page.getByRole("article", { name: title })

const SWITCH_TITLE = "Turn checkout on in production"
const EDIT_TITLE = "Serve checkout in production"

beforeAll(async () => {
  server = await startSqliteServer("change-requests")
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: BOOLEAN })
  await person(ADMIN, "admin")
  await person(EDITOR, "editor")
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
  await page.goto(`${server.url}/ui/`)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("protected environments and change requests in the dashboard", () => {
  it("a project admin protects production on the Environments page", async () => {
    await signInAs(ADMIN)
    await open(page, "#/environments")
    const protect = page.getByLabel("Protect Production")
    await protect.waitFor()
    expect(await protect.isChecked()).toBe(false)
    await protect.check()
    await page.getByRole("status").filter({ hasText: "Production is protected: changes need 1 approval." }).waitFor()
    await page.getByLabel("Approvals required in Production").selectOption("2")
    await page.getByRole("status").filter({ hasText: "changes need 2 approvals" }).waitFor()
    await page.getByLabel("Approvals required in Production").selectOption("1")
    await page.getByRole("status").filter({ hasText: "changes need 1 approval." }).waitFor()
    const environments = (await api("GET", "/v1/projects/p1/environments")) as { data: Array<{ key: string; protected: boolean; requiredApprovals: number }> }
    expect(environments.data.find((e) => e.key === "production")).toMatchObject({ protected: true, requiredApprovals: 1 })
    expect(environments.data.find((e) => e.key === "development")).toMatchObject({ protected: false })
    await checkPage(page, "change-requests-environments")
    await signOut()
  })

  it("an editor's switch in production proposes rather than flips; in development it still flips", async () => {
    await signInAs(EDITOR)
    await open(page, "#/flags")
    const production = page.getByRole("switch", { name: "checkout in production" })
    await production.waitFor()
    // an editor sees the protection, not the controls to change it
    await page.getByText("A switch there proposes a change request rather than changing the flag.").waitFor()
    await production.click()
    await confirm()
    await page.getByRole("status").filter({ hasText: `Change request “${SWITCH_TITLE}” opened` }).waitFor()
    expect(await production.getAttribute("aria-checked")).toBe("false")
    expect((await inProduction()).enabled).toBe(false)
    const proposed = await byTitle(SWITCH_TITLE)
    expect(proposed).toMatchObject({ status: "open", changes: [{ flagKey: "checkout", after: { enabled: true } }] })
    await expect.poll(() => navEntry().textContent()).toBe("Change requests 1 open")
    await checkPage(page, "change-requests-switch-proposed")
    // an environment that is not protected: the switch changes the flag at once
    const development = page.getByRole("switch", { name: "checkout in development" })
    await development.click()
    await expect.poll(() => development.getAttribute("aria-checked")).toBe("true")
  })

  it("the targeting editor's save becomes Propose change in production, with a title and a description", async () => {
    await page.getByRole("link", { name: "checkout", exact: true }).click()
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    const form = page.getByRole("form", { name: "Targeting in production" })
    await form.getByRole("switch").check()
    expect(await form.getByRole("button", { name: /Save targeting/ }).count()).toBe(0)
    // a person's schedule into a protected environment would be refused: not offered
    expect(await form.getByRole("group", { name: "Or schedule this change" }).count()).toBe(0)
    const proposeButton = form.getByRole("button", { name: "Propose change" })
    expect(await proposeButton.isDisabled()).toBe(true)
    await form.getByLabel("Title").fill(EDIT_TITLE)
    await form.getByLabel("Description").fill("Launch day")
    await checkPage(page, "change-requests-propose")
    await proposeButton.click()
    await page.getByRole("status").filter({ hasText: `Change request “${EDIT_TITLE}” opened for production` }).waitFor()
    expect((await inProduction()).enabled).toBe(false)
    const proposed = await byTitle(EDIT_TITLE)
    expect(proposed).toMatchObject({ status: "open", description: "Launch day", changes: [{ flagKey: "checkout", after: { enabled: true } }] })
    await expect.poll(() => navEntry().textContent()).toBe("Change requests 2 open")
  })

  it("the author cannot approve their own request, and cancels one", async () => {
    await navEntry().click()
    await card(EDIT_TITLE).waitFor()
    const mine = card(EDIT_TITLE)
    expect(await mine.getByText("Approvals: 0 of 1 required.").count()).toBe(1)
    const change = mine.getByRole("region", { name: "checkout in production: before and after" })
    expect(await change.locator(".changes li").allTextContents()).toEqual(["~Changed: Turned on (was off)"])
    expect(await change.textContent()).toContain('+   "enabled": true')
    expect(await page.getByRole("button", { name: /^Approve/ }).count()).toBe(0)
    expect(await page.getByRole("button", { name: /^Apply/ }).count()).toBe(0)
    await checkPage(page, "change-requests-author")
    await card(SWITCH_TITLE).getByRole("button", { name: /^Cancel request/ }).click()
    await confirm()
    await page.getByRole("status").filter({ hasText: `“${SWITCH_TITLE}” is cancelled.` }).waitFor()
    expect((await byTitle(SWITCH_TITLE))?.status).toBe("cancelled")
    await expect.poll(() => navEntry().textContent()).toBe("Change requests 1 open")
    // the live one comes first, the cancelled one after it
    expect(await page.getByRole("article").locator("h2").allTextContents()).toEqual([EDIT_TITLE, SWITCH_TITLE])
    await signOut()
  })

  it("an admin approves and applies it, and the audit log tells the story", async () => {
    await signInAs(ADMIN)
    await open(page, "#/change-requests")
    const request = card(EDIT_TITLE)
    await request.waitFor()
    // closed requests offer nothing
    expect(await card(SWITCH_TITLE).getByRole("button").count()).toBe(0)
    await request.getByLabel("Comment").fill("Checked with support")
    await request.getByRole("button", { name: /^Approve/ }).click()
    await page.getByRole("status").filter({ hasText: `You approved “${EDIT_TITLE}”.` }).waitFor()
    await request.getByText("Approvals: 1 of 1 required:").waitFor()
    await request.getByText(`${ADMIN.email}`, { exact: false }).first().waitFor()
    expect((await byTitle(EDIT_TITLE))?.status).toBe("approved")
    await checkPage(page, "change-requests-approved")
    const before = await checkout()
    await request.getByRole("button", { name: /^Apply/ }).click()
    await confirm()
    await page.getByRole("status").filter({ hasText: `“${EDIT_TITLE}” is applied to production.` }).waitFor()
    expect((await inProduction()).enabled).toBe(true)
    expect((await checkout()).version).toBe(before.version + 1)
    const applied = (await byTitle(EDIT_TITLE))!
    expect(applied.status).toBe("applied")
    await request.getByText(`Applied by ${ADMIN.email}`).waitFor()
    await expect.poll(() => navEntry().textContent()).toBe("Change requests")

    const audit = (await api("GET", "/v1/projects/p1/audit?resourceKey=checkout&environment=production")) as {
      data: Array<{ action: string; actor: { email?: string }; changeRequestId?: string }>
    }
    expect(audit.data[0]).toMatchObject({ actor: { email: ADMIN.email }, changeRequestId: applied.id })
    await open(page, "#/audit")
    const applying = page.getByRole("row").filter({ hasText: `through change request ${applied.id}` })
    await applying.waitFor()
    expect(await applying.textContent()).toContain(ADMIN.email)
    const log = await page.getByRole("table").textContent()
    expect(log).toContain("change_request.opened")
    expect(log).toContain(EDITOR.email)
    await checkPage(page, "change-requests-audit")
    await signOut()
  })

  it("names the flag that moved on when a request is applied, and its author brings it up to date", async () => {
    const title = "Turn checkout off in production"
    await signInAs(EDITOR)
    await open(page, "#/flags")
    await page.getByRole("switch", { name: "checkout in production" }).click()
    await confirm()
    await page.getByRole("status").filter({ hasText: `Change request “${title}” opened` }).waitFor()
    await signOut()
    await signInAs(ADMIN)
    await open(page, "#/change-requests")
    await card(title).getByRole("button", { name: /^Approve/ }).click()
    await page.getByRole("status").filter({ hasText: `You approved “${title}”.` }).waitFor()
    // meanwhile automation (a server key writes production directly) moves the flag on
    const now = await inProduction()
    await api("PUT", "/v1/projects/p1/flags/checkout/targeting", { environment: "production", enabled: now.enabled, defaultVariationKey: now.defaultVariationKey, offVariationKey: "on", rules: [] })
    await card(title).getByRole("button", { name: /^Apply/ }).click()
    await confirm()
    // the API's refusal, and the page naming the flag once it read the flags again
    await card(title).getByRole("alert").filter({ hasText: "Flag 'checkout' changed since this change request was made; nothing was applied" }).waitFor()
    await card(title).getByText("Changed since this request was made: checkout.").waitFor()
    expect((await inProduction()).enabled).toBe(true)
    expect((await byTitle(title))?.status).toBe("approved")
    // only the author may bring it up to date
    expect(await card(title).getByRole("button", { name: "Bring up to date" }).count()).toBe(0)
    await card(title).getByText("Its author can bring it up to date.").waitFor()
    await checkPage(page, "change-requests-conflict")
    await signOut()

    await signInAs(EDITOR)
    await open(page, "#/change-requests")
    await card(title).getByRole("button", { name: "Bring up to date" }).click()
    await page.getByRole("status").filter({ hasText: "is up to date with the flags as they are now" }).waitFor()
    const updated = (await byTitle(title))!
    expect(updated).toMatchObject({ status: "open", approvals: [] })
    expect(updated.changes[0]!.baseVersion).toBe((await checkout()).version)
    expect(await card(title).getByText("Changed since this request was made").count()).toBe(0)
    expect(await card(title).getByText("Approvals: 0 of 1 required.").count()).toBe(1)
    await signOut()
  })

  it("a viewer only reads; a server key still saves production directly", async () => {
    const eddie = ((await api("GET", "/v1/users")) as { data: Array<{ id: string; email: string }> }).data.find((u) => u.email === EDITOR.email)!
    await server.run(setRole("p1", eddie.id, "viewer"))
    await signInAs(EDITOR)
    await open(page, "#/change-requests")
    await card("Turn checkout off in production").waitFor()
    expect(await page.getByRole("main").getByRole("button").count()).toBe(0)
    expect(await page.getByRole("main").getByRole("textbox").count()).toBe(0)
    await checkPage(page, "change-requests-viewer")
    // No page tells a viewer that a switch or a save would propose: they can do neither.
    await open(page, "#/flags")
    await page.getByRole("table").getByText("checkout").first().waitFor()
    expect(await page.getByText("A switch there proposes a change request").count()).toBe(0)
    expect(await page.getByRole("switch").count()).toBe(0)
    await open(page, "#/flags/checkout?environment=production")
    await page.getByRole("form", { name: "Targeting in production" }).waitFor()
    expect(await page.getByText("your change is proposed as a change request").count()).toBe(0)
    expect(await page.getByRole("button", { name: "Propose change" }).count()).toBe(0)
    await checkPage(page, "change-requests-viewer-flags")
    await signOut()

    await page.getByLabel("Server key").fill(server.keys.scoped)
    await page.getByRole("button", { name: "Sign in with the key" }).click()
    await open(page, "#/flags/checkout")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    const form = page.getByRole("form", { name: "Targeting in production" })
    await form.getByLabel("Default variation (no rule matches)").selectOption("off")
    expect(await form.getByRole("button", { name: "Propose change" }).count()).toBe(0)
    await form.getByRole("button", { name: "Save targeting in production" }).click()
    await confirm()
    await expect.poll(async () => (await inProduction()).defaultVariationKey).toBe("off")
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Server key").waitFor()
    expect(cspViolations).toEqual([])
  })

  it("proposes with an apply time, and the author edits an open request's title, description and time (the changes stay as they were)", async () => {
    const title = "Checkout on at launch"
    await signInAs(ADMIN)
    await open(page, "#/flags/checkout")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    const form = page.getByRole("form", { name: "Targeting in production" })
    await form.getByRole("switch").click()
    await form.getByLabel("Title").fill(title)
    await form.getByLabel("Apply at (UTC, optional)").fill("2031-05-06T07:08:09")
    await checkPage(page, "change-requests-propose-at")
    await form.getByRole("button", { name: "Propose change" }).click()
    await page.getByRole("status").filter({ hasText: `Change request “${title}” opened for production` }).waitFor()
    const proposed = (await byTitle(title))!
    expect(proposed).toMatchObject({ status: "open", applyAt: "2031-05-06T07:08:09.000Z", description: null })

    // Someone approves it (the operator: no key approves); meanwhile automation moves the flag on.
    await server.run(Effect.flatMap(ChangeRequests, (requests) => requests.approve("p1", proposed.id, {})))
    const now = await inProduction()
    await api("PUT", "/v1/projects/p1/flags/checkout/targeting", { environment: "production", enabled: now.enabled, defaultVariationKey: now.defaultVariationKey, offVariationKey: "off", rules: [] })

    await open(page, "#/change-requests")
    const mine = card(title)
    await mine.getByText("Applied by the scheduler at 2031-05-06 07:08:09 UTC once approved.").waitFor()
    await mine.getByRole("button", { name: `Edit “${title}”` }).click()
    const edit = mine.getByRole("form", { name: `Edit “${title}”` })
    await edit.getByText("Saving clears its approval").waitFor()
    expect(await edit.getByLabel("Apply at (UTC, optional)").inputValue()).toBe("2031-05-06T07:08:09")
    await edit.getByLabel("Title").fill("Checkout on after launch")
    await edit.getByLabel("Description").fill("One day later")
    await edit.getByLabel("Apply at (UTC, optional)").fill("2031-05-07T07:08:09")
    await checkPage(page, "change-requests-edit")
    await edit.getByRole("button", { name: "Save" }).click()
    await page.getByRole("status").filter({ hasText: "“Checkout on after launch” is saved; it needs its approvals again." }).waitFor()
    const edited = (await byTitle("Checkout on after launch"))!
    // The words and the time changed; the changes did not (not re-based on the flag that moved on).
    expect(edited).toMatchObject({ id: proposed.id, description: "One day later", applyAt: "2031-05-07T07:08:09.000Z", status: "open", approvals: [] })
    expect(edited.changes).toEqual(proposed.changes)
    await card("Checkout on after launch").getByText("Changed since this request was made: checkout.").waitFor()

    // An empty time: applied by hand.
    await card("Checkout on after launch").getByRole("button", { name: /^Edit/ }).click()
    await card("Checkout on after launch").getByLabel("Apply at (UTC, optional)").fill("")
    await card("Checkout on after launch").getByRole("button", { name: "Save" }).click()
    await page.getByRole("status").filter({ hasText: "“Checkout on after launch” is saved." }).waitFor()
    expect((await byTitle("Checkout on after launch"))!.applyAt).toBeNull()
    expect(await card("Checkout on after launch").getByText("Applied by the scheduler").count()).toBe(0)
    await card("Checkout on after launch").getByRole("button", { name: /^Cancel request/ }).click()
    await confirm()
    await page.getByRole("status").filter({ hasText: "is cancelled." }).waitFor()
    // A closed request offers no edit.
    expect(await card("Checkout on after launch").getByRole("button").count()).toBe(0)
    expect(cspViolations).toEqual([])
  })
})
