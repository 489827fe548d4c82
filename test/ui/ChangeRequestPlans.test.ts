/**
 * A change request that starts a release plan, on the dashboard's Change requests page, in a real
 * browser against a real server on SQLite: the plan shown as the request pinned it (what applying
 * does, each step with its hold, the guardrails, what happens on harm), approved and applied by a
 * project admin, after which the plan runs. axe-core checks the view; no CSP violation is reported.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Effect from "effect/Effect"
import { ChangeRequests } from "../../src/services/changes/ChangeRequests.js"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, launch, open, watchedPage } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

const ADMIN = { email: "ada@example.com", name: "Ada Admin", password: "correct horse battery" }
const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

/** An API call with the global key (the test's own view of the server, not the page's). */
const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const signInAs = async (who: typeof ADMIN) => {
  const form = page.getByRole("form", { name: "Sign in with email and password" })
  await form.getByLabel("Email").fill(who.email)
  await form.getByLabel("Password").fill(who.password)
  await form.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.locator("details.person-menu").waitFor()
}

const confirm = () => page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()

/** A change request on its page, by its title. */
const card = (title: string) => page.getByRole("article", { name: title })

beforeAll(async () => {
  server = await startSqliteServer("change-request-plans")
  await api("PATCH", "/v1/projects/p1/environments/production", { protected: true })
  const invited = (await api("POST", "/v1/users", { email: ADMIN.email, name: ADMIN.name, projects: [{ projectId: "p1", role: "admin" }] })) as { setupUrl: string }
  const token = new URL(invited.setupUrl).hash.replace(/^#token=/, "")
  const set = await request(server.url, "POST", "/v1/auth/setup", { body: { token, password: ADMIN.password } })
  expect(set.status, set.text).toBe(200)
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
  await page.goto(`${server.url}/ui/`)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("a change request that starts a release plan, in the dashboard", () => {
  it("a request that starts a release plan shows the plan as pinned (steps, guardrails, what happens on harm); approved and applied, the plan runs", async () => {
    const title = "Ramp the banner up in production"
    await api("POST", "/v1/projects/p1/flags", { key: "banner", type: "boolean", variations: BOOLEAN })
    await api("PUT", "/v1/projects/p1/flags/banner/targeting", {
      environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "everyone", conditions: [], variationKey: "off" }]
    })
    const plan = (await api("POST", "/v1/projects/p1/flags/banner/release-plans", {
      environment: "production",
      ruleId: "everyone",
      variationKey: "on",
      steps: [{ weight: 5_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 1_440 }],
      guardrails: [{ key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" }],
      onHarm: "rollback"
    })) as { id: string }
    // Opened by the operator (the dashboard proposes targeting; a plan's start is proposed through the API).
    await server.run(Effect.flatMap(ChangeRequests, (requests) =>
      requests.open("p1", { title, environment: "production", releasePlans: [{ flagKey: "banner", planId: plan.id, action: "start" }] })))
    await signInAs(ADMIN)
    await open(page, "#/change-requests")
    const shown = card(title)
    const section = shown.getByRole("region", { name: `Start release plan ${plan.id} of banner` })
    await section.getByText("Ramps “on” up on rule everyone, from plan version 1.", { exact: false }).waitFor()
    await section.getByText("Step 1: 5% for 60 min").waitFor()
    await section.getByText("Step 2: 100% for 24 h").waitFor()
    await section.getByText("Guardrails: errors (alpha 0.05). On harm: roll back to 0% at once.").waitFor()
    await checkPage(page, "change-requests-release-plan")
    await shown.getByRole("button", { name: /^Approve/ }).click()
    await page.getByRole("status").filter({ hasText: `You approved “${title}”.` }).waitFor()
    await shown.getByRole("button", { name: /^Apply/ }).click()
    await confirm()
    await page.getByRole("status").filter({ hasText: `“${title}” is applied to production.` }).waitFor()
    expect(await api("GET", `/v1/projects/p1/flags/banner/release-plans/${plan.id}`)).toMatchObject({ status: "running", startedBy: { email: ADMIN.email } })
    expect(cspViolations).toEqual([])
  })

  it("a person's Start on the flag page in a protected environment offers the change request, and opens it with the plan pinned", async () => {
    await api("POST", "/v1/projects/p1/flags", { key: "ramp", type: "boolean", variations: BOOLEAN })
    await api("PUT", "/v1/projects/p1/flags/ramp/targeting", {
      environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [{ id: "everyone", conditions: [], variationKey: "off" }]
    })
    const plan = (await api("POST", "/v1/projects/p1/flags/ramp/release-plans", {
      environment: "production", ruleId: "everyone", variationKey: "on", steps: [{ weight: 5_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 60 }]
    })) as { id: string }
    await open(page, "#/flags/ramp/release-plans?environment=production")
    await page.getByRole("button", { name: "Start plan" }).click()
    await page.getByRole("dialog").getByText("Propose to start this plan as a change request now?", { exact: false }).waitFor()
    await confirm()
    await page.getByText("Proposed as change request", { exact: false }).waitFor()
    const requests = (await api("GET", "/v1/projects/p1/change-requests")) as { data: Array<{ title: string; status: string; author: unknown; releasePlans: ReadonlyArray<unknown> }> }
    const opened = requests.data.find((r) => r.title === "Start the release plan of ramp in production")
    expect(opened).toMatchObject({ status: "open", author: { email: ADMIN.email }, releasePlans: [{ flagKey: "ramp", planId: plan.id, action: "start", baseVersion: 1 }] })
    // Nothing started yet: the request waits for another person's approval.
    expect(await api("GET", `/v1/projects/p1/flags/ramp/release-plans/${plan.id}`)).toMatchObject({ status: "draft" })
    expect(cspViolations).toEqual([])
  })
})
