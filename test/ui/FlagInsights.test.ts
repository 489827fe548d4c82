/**
 * Seeing what flags do, on the dashboard, in a real browser against a real server on SQLite: the
 * playground's explain trace (prerequisites, rules with the values the context held, the rollout's
 * bucket), checked against `POST /v1/explain`; and a save on the flag page keeps the prerequisites
 * the editor does not show. axe-core checks every new view.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, open, openSignedIn } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page

const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const explain = async (flagKey: string, context: unknown) =>
  (await api("POST", "/v1/explain", { projectId: "p1", environment: "production", flagKey, context })) as { result: { variationKey: string; reason: { kind: string } } }

const playground = async (flagKey: string, key: string, attributes: unknown) => {
  await open(page, "#/playground")
  await page.getByLabel("Environment", { exact: true }).selectOption("production")
  await page.getByLabel("Flag", { exact: true }).selectOption(flagKey)
  await page.getByLabel("Context key").fill(key)
  await page.getByLabel("Context attributes (JSON object)").fill(JSON.stringify(attributes))
  await page.getByRole("button", { name: "Evaluate" }).click()
  const why = page.getByRole("region", { name: "Why" })
  await why.waitFor()
  return { why, result: page.getByRole("region", { name: "Result" }) }
}

beforeAll(async () => {
  server = await startSqliteServer("insights")
  await api("POST", "/v1/projects/p1/flags", { key: "payments-live", type: "boolean", variations: BOOLEAN })
  await api("PUT", "/v1/projects/p1/flags/payments-live/targeting", {
    environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off",
    rules: [{ name: "Staff", conditions: [{ attribute: "team", operator: "in", values: ["staff"] }], variationKey: "on" }]
  })
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: BOOLEAN })
  await api("PUT", "/v1/projects/p1/flags/checkout/targeting", {
    environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off",
    prerequisites: [{ flagKey: "payments-live", variationKey: "on" }],
    rules: [
      { name: "Beta", conditions: [{ attribute: "plan", operator: "in", values: ["beta"] }], variationKey: "on" },
      { name: "Half", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 50_000 }, { variationKey: "off", weight: 50_000 }] } }
    ]
  })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the explain trace in the playground", () => {
  it("shows a prerequisite met, a rule that did not match with the value read, and the rollout's bucket", async () => {
    const context = { key: "user-7", attributes: { team: "staff", plan: "free" } }
    const { why, result } = await playground("checkout", context.key, context.attributes)
    const answer = await explain("checkout", context)
    expect(answer.result.reason.kind).toBe("RULE_MATCH")
    expect(await result.textContent()).toContain(answer.result.variationKey)
    const text = (await why.textContent())!
    expect(text).toContain("payments-live must serve on: it serves on (RULE_MATCH) → met")
    expect(text).toContain('plan in "beta": the context has "free" → did not match')
    const trace = (await api("POST", "/v1/explain", { projectId: "p1", environment: "production", flagKey: "checkout", context })) as {
      trace: { rules: Array<{ rollout?: { bucket: number; variationKey: string } }> }
    }
    const rollout = trace.trace.rules[1]!.rollout!
    expect(text).toContain(`bucket ${rollout.bucket.toLocaleString("en")} of 100,000 → ${rollout.variationKey}`)
    expect(text).toContain(`Rule 2 decided: variation ${answer.result.variationKey}`)
    await why.getByText("Why payments-live serves that").click()
    expect(await why.textContent()).toContain('team in "staff": the context has "staff" → matched')
    await checkPage(page, "playground-explain")
  })

  it("says which prerequisite was not met, and an absent attribute", async () => {
    const { why } = await playground("checkout", "user-8", {})
    expect((await explain("checkout", { key: "user-8", attributes: {} })).result.reason.kind).toBe("PREREQUISITE_FAILED")
    // the answer to the previous context shows until this one arrives
    await expect.poll(() => why.textContent()).toContain("payments-live must serve on: it serves off (FALLTHROUGH) → not met")
    expect(await why.textContent()).toContain("Prerequisite payments-live is not met, so it serves its off variation: variation off (false).")
    await why.getByText("Why payments-live serves that").click()
    expect(await why.textContent()).toContain('team in "staff": the context has no such attribute → did not match')
    await checkPage(page, "playground-explain-prerequisite")
  })
})

describe("prerequisites on the flag page", () => {
  it("shows the prerequisites and keeps them when the targeting is saved from the editor", async () => {
    await open(page, "#/flags/checkout")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    const form = page.getByRole("form", { name: "Targeting in production" })
    expect(await form.getByRole("listitem").filter({ hasText: "payments-live serves on" }).count()).toBe(1)
    expect(await form.getByRole("link", { name: "payments-live" }).getAttribute("href")).toBe("#/flags/payments-live")
    await checkPage(page, "flag-prerequisites")
    await page.getByLabel("Rule 1: name").fill("Beta testers")
    await page.getByRole("button", { name: "Save targeting in production" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByText(/^Targeting in production saved/).waitFor()
    const flag = (await api("GET", "/v1/projects/p1/flags/checkout")) as { configs: Array<{ environmentKey: string; prerequisites: unknown; rules: Array<{ name: string }> }> }
    const production = flag.configs.find((c) => c.environmentKey === "production")!
    expect(production.rules[0]!.name).toBe("Beta testers")
    expect(production.prerequisites).toEqual([{ flagKey: "payments-live", variationKey: "on" }])
  })

  it("never schedules the targeting without its prerequisites: either the schedule keeps them or the API's refusal is shown", async () => {
    await page.getByLabel("Apply at (UTC)").fill("2099-01-01T09:00:00")
    await page.getByRole("button", { name: "Schedule for production" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    const refused = page.getByRole("form", { name: "Targeting in production" }).getByRole("alert")
    const scheduled = page.getByText(/^Change to production scheduled for /)
    await expect.poll(async () => (await refused.count()) + (await scheduled.count())).toBe(1)
    const schedules = ((await api("GET", "/v1/projects/p1/flags/checkout/schedules")) as { data: Array<{ targeting: { prerequisites?: unknown } }> }).data
    if (schedules.length === 0) expect(await refused.textContent()).toContain("prerequisites")
    else expect(schedules[0]!.targeting.prerequisites).toEqual([{ flagKey: "payments-live", variationKey: "on" }])
    await checkPage(page, "flag-schedule-prerequisites")
  })
})
