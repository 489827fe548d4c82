/**
 * The change requests page shows, beside a request's diff, the conditions of the segments its rules
 * name as they were pinned with it (what the approver approves), in a real browser against a real
 * server on SQLite; after the segment changes, the page still shows what was approved and the apply
 * is refused with the API's message. axe-core checks the view.
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
let editor: Person

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300)
  return reply.body
}
const asEditor = async (method: string, path: string, body?: unknown) => {
  const reply = await asPerson(server.url, editor.cookie, method, path, body)
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300)
  return reply.body
}

beforeAll(async () => {
  server = await startSqliteServer("change-request-segments")
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
  await api("PATCH", "/v1/projects/p1/environments/production", { protected: true })
  editor = await server.run(makePerson("segment-editor@example.com", { projects: [{ projectId: "p1", role: "editor" }] }))
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("a change request's segments on its page", () => {
  it("shows the pinned conditions beside the diff; after the segment is widened the page keeps them and the apply is refused", async () => {
    await asEditor("POST", "/v1/projects/p1/segments", { key: "staff", name: "Staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }] })
    const opened = (await asEditor("POST", "/v1/projects/p1/change-requests", {
      title: "Checkout for staff",
      environment: "production",
      changes: [{ flagKey: "checkout", targeting: { enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ conditions: [{ operator: "inSegment", values: ["staff"] }], variationKey: "on" }] } }]
    })) as { id: string }
    await open(page, "#/change-requests")
    const card = page.getByRole("article", { name: "Checkout for staff" })
    const segments = card.getByRole("region", { name: "Segments these rules name" })
    await segments.waitFor()
    const staff = segments.getByRole("listitem", { name: "Segment staff" })
    expect(await staff.textContent()).toMatch(/^staff \(Staff, changed .+\): email ends with \[@example\.com\]$/)
    await checkPage(page, "change-request-segments")

    // Widened after the request was made: the page shows what the request pinned, and the apply is refused.
    await asEditor("PATCH", "/v1/projects/p1/segments/staff", { conditions: [{ attribute: "email", operator: "contains", values: ["@"] }] })
    const admin = await server.run(makePerson("segment-admin@example.com", { projects: [{ projectId: "p1", role: "admin" }] }))
    expect((await asPerson(server.url, admin.cookie, "POST", `/v1/projects/p1/change-requests/${opened.id}/approve`, {})).status).toBe(200)
    await page.reload()
    await open(page, "#/change-requests")
    await staff.waitFor()
    expect(await staff.textContent()).toContain("email ends with [@example.com]")
    const refused = await asEditor("GET", `/v1/projects/p1/change-requests/${opened.id}`)
    expect(refused).toMatchObject({ status: "approved" })
    const apply = await asPerson(server.url, editor.cookie, "POST", `/v1/projects/p1/change-requests/${opened.id}/apply`)
    expect(apply.status).toBe(409)
    expect(apply.text).toContain("Segment 'staff' changed since this change request was made")
  })
})
