/**
 * An approved change request whose approvals no longer all count, in a real browser against a real
 * server on SQLite: production needs two approvals, two admins approve, then one of them is made an
 * editor. The page shows the request as not ready ("approved, but 1 of 2 approvals no longer
 * counts: needs 1 more"), marks the approval that no longer counts with why, and offers no Apply.
 * Made an admin again, the approver's approval counts: the request is ready and applied from the
 * page. axe-core checks the not-ready view; no CSP violation is reported.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import type { Role } from "../../src/domain/people/Role.js"
import { asPerson, makePerson, PASSWORD, type Person, setRole } from "../http/people.js"
import { checkPage, launch, open, watchedPage } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
let editor: Person
let ada: Person
let bo: Person
const cspViolations: Array<string> = []
const TITLE = "Turn checkout on in production"

/** An API call with the global key (the test's own view of the server, not the page's). */
const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body as Record<string, unknown>
}
const as = async (person: Person, method: string, path: string, body?: unknown) => {
  const reply = await asPerson(server.url, person.cookie, method, path, body)
  expect(reply.status, reply.text).toBeLessThan(300)
  return reply.body as Record<string, unknown>
}
// As the operator: no key changes a member.
const role = (person: Person, to: Role) => server.run(setRole("p1", person.id, to))
const card = () => page.getByRole("article", { name: TITLE })

beforeAll(async () => {
  server = await startSqliteServer("approval-counts")
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  await api("PATCH", "/v1/projects/p1/environments/production", { protected: true, requiredApprovals: 2 })
  editor = await server.run(makePerson("eddie@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
  ada = await server.run(makePerson("ada@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
  bo = await server.run(makePerson("bo@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
  await page.goto(`${server.url}/ui/`)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("a change request whose approvals no longer all count, in the dashboard", () => {
  it("shows it as not ready, marks the approval that no longer counts, and offers no apply until it counts again", async () => {
    const opened = await as(editor, "POST", "/v1/projects/p1/change-requests", {
      title: TITLE,
      environment: "production",
      changes: [{ flagKey: "checkout", targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] } }]
    })
    const path = `/v1/projects/p1/change-requests/${String(opened.id)}`
    await as(ada, "POST", `${path}/approve`, { comment: "Fine by me" })
    await as(bo, "POST", `${path}/approve`, {})
    await role(bo, "editor")
    expect(await api("GET", path)).toMatchObject({ status: "approved", countingApprovals: 1, requiredApprovals: 2 })

    // The author, who could apply it were it ready.
    const form = page.getByRole("form", { name: "Sign in with email and password" })
    await form.getByLabel("Email").fill(editor.email)
    await form.getByLabel("Password").fill(PASSWORD)
    await form.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.locator("details.person-menu").waitFor()
    await open(page, "#/change-requests")
    await card().waitFor()
    await card().getByText("approved, but 1 of 2 approvals no longer counts: needs 1 more").waitFor()
    expect(await card().getByText("approved: ready to apply").count()).toBe(0)
    await card().getByText("Approvals: 1 of 2 required, and 1 that no longer counts:").waitFor()
    const approvals = await card().locator(".approvals li").allTextContents()
    expect(approvals).toHaveLength(2)
    expect(approvals[0]).toContain(ada.email)
    expect(approvals[0]).not.toContain("no longer counts")
    expect(approvals[1]).toContain(bo.email)
    expect(approvals[1]).toContain("no longer counts (approver no longer an admin of this project)")
    await card().getByText("Not ready to apply: it needs 1 more approval from a project admin.").waitFor()
    expect(await card().getByRole("button", { name: /^Apply/ }).count()).toBe(0)
    // Still the author's to edit or cancel.
    expect(await card().getByRole("button", { name: /^Cancel request/ }).count()).toBe(1)
    await checkPage(page, "change-requests-not-ready")
    // On a phone: the longer wording wraps, nothing past the right edge, still axe-clean.
    await page.setViewportSize({ width: 360, height: 740 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await card().getByText("approved, but 1 of 2 approvals no longer counts: needs 1 more").waitFor()
    await checkPage(page, "change-requests-not-ready-360")
    await page.setViewportSize({ width: 1280, height: 900 })

    // Made an admin again, the approval counts: ready, and applied from the page.
    await role(bo, "admin")
    await page.reload()
    await card().getByText("approved: ready to apply").waitFor()
    await card().getByText("Approvals: 2 of 2 required:").waitFor()
    expect(await card().getByText("no longer counts").count()).toBe(0)
    await card().getByRole("button", { name: /^Apply/ }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByRole("status").filter({ hasText: `“${TITLE}” is applied to production.` }).waitFor()
    expect(await api("GET", path)).toMatchObject({ status: "applied", countingApprovals: 2 })
    expect(cspViolations).toEqual([])
  })
})
