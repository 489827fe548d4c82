/**
 * A flag's release plans in a real browser against a real server on SQLite (its scheduler
 * running): a plan made from the day's template (a refused save shows the API's words next to the
 * step it names), given short holds, its draft edited, started; its timeline advances by itself to the step that
 * holds, and its guardrail's figures show the traffic sent; paused, resumed, cancelled after asking
 * (the rule keeps its weight); a second plan's start is refused with the API's reason while the
 * first runs, and once started, traffic whose ramped variation errs twice as often stops it and
 * rolls the rule back, the deciding figures shown; a viewer sees the plans and no button. Each step is checked
 * through the HTTP API; the running plan and the editor are checked at 1,440 and 360 px wide (no
 * sideways scroll, axe-clean) and no CSP violation is reported. One browser for the whole file.
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
const cspViolations: Array<string> = []

const FLAG = { key: "new-checkout", type: "boolean", variations: [{ key: "v2", value: true, name: "Checkout v2" }, { key: "classic", value: false, name: "Classic checkout" }] }
const TARGETING = {
  environment: "production",
  enabled: true,
  defaultVariationKey: "classic",
  offVariationKey: "classic",
  rules: [{ id: "everyone", name: "Everyone", conditions: [], variationKey: "classic" }]
}
const PLANS = `/v1/projects/p1/flags/${FLAG.key}/release-plans`

interface PlanBody {
  readonly id: string
  readonly status: string
  readonly currentStep: number | null
  readonly steps: ReadonlyArray<{ weight: number; holdMinutes: number }>
  readonly guardrails: ReadonlyArray<{ key: string; event: string }>
  readonly onHarm: string
  readonly alpha: number
}

/**
 * Traffic on the rule `everyone` as SDKs send it (server key, production): an exposure per unit,
 * then `checkout-error` a second later for the first `erred` units of each variation. Unit ids
 * start with `prefix`, so each call adds new units.
 */
const sendTraffic = async (prefix: string, traffic: ReadonlyArray<{ variationKey: string; units: number; erred: number }>) => {
  const exposedAt = new Date()
  const after = new Date(exposedAt.getTime() + 1_000).toISOString()
  const exposures: Array<unknown> = []
  const events: Array<unknown> = []
  for (const t of traffic) {
    for (let i = 0; i < t.units; i++) {
      const unit = `${prefix}-${t.variationKey}-${i}`
      exposures.push({ flagKey: FLAG.key, variationKey: t.variationKey, ruleId: "everyone", unit, timestamp: exposedAt.toISOString() })
      if (i < t.erred) events.push({ event: "checkout-error", unit, timestamp: after })
    }
  }
  for (const [path, field, items] of [["/v1/exposures", "exposures", exposures], ["/v1/track", "events", events]] as const) {
    for (let i = 0; i < items.length; i += 1_000) {
      const reply = await request(server.url, "POST", path, { key: server.keys.scoped, body: { environment: "production", [field]: items.slice(i, i + 1_000) } })
      expect(reply.status, `${path}: ${reply.text}`).toBe(202)
    }
  }
}

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}
const plans = async () => ((await api("GET", PLANS)) as { data: ReadonlyArray<PlanBody> }).data
const ruleShares = async () => {
  const flag = (await api("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ variationKey?: string; rollout?: { variations: Array<{ variationKey: string; weight: number }> } }> }> }
  const rule = flag.configs.find((c) => c.environmentKey === "production")!.rules[0]!
  return rule.rollout?.variations ?? [{ variationKey: rule.variationKey!, weight: 100_000 }]
}

/** No sideways scroll at this width, no WCAG 2.1 A/AA violation, a screenshot: at 1,440 and 360 px, then back to 1,440. */
const checkWidths = async (name: string) => {
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 })
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0)
    await checkPage(page, `release-plans-${name}-${width}`)
  }
  await page.setViewportSize({ width: 1440, height: 900 })
}

const panel = () => page.getByRole("tabpanel")
const editor = () => page.getByRole("form", { name: "New release plan" })
const steps = () => panel().getByRole("list", { name: "Steps" }).getByRole("listitem").allTextContents()

beforeAll(async () => {
  // Guardrails checked every second (the operator's setting; a minute by default), so harm shows at once.
  process.env.FLAGPORT_RELEASE_PLAN_CHECK_SECONDS = "1"
  server = await startSqliteServer("release-plans", { schedules: true })
  delete process.env.FLAGPORT_RELEASE_PLAN_CHECK_SECONDS
  await api("POST", "/v1/projects/p1/flags", FLAG)
  await api("PUT", `/v1/projects/p1/flags/${FLAG.key}/targeting`, TARGETING)
  await server.run(makePerson("vic@example.com", { projects: [{ projectId: "p1", role: "viewer" }] }))
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1", { cspViolations, width: 1440 }))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("a flag's release plans", () => {
  it("makes a draft from the day's template; a refused save shows the API's words on the step it names", async () => {
    await open(page, `#/flags/${FLAG.key}/release-plans?environment=production`)
    await panel().getByText(`No release plan for ${FLAG.key} in production yet.`).waitFor()
    await panel().getByRole("button", { name: "New release plan" }).click()
    expect(await editor().getByLabel("Rule", { exact: true }).locator("option").allTextContents()).toEqual(["Rule 1 “Everyone”: classic 100%"])
    await editor().getByLabel("Variation to ramp up").selectOption("v2")
    await editor().getByRole("button", { name: "Use 1%, 10%, 50%, 100% over a week" }).click()
    expect(await editor().getByLabel("Step 1: share (%)").inputValue()).toBe("1")
    expect(await editor().getByLabel("Step 4: hold (minutes)").inputValue()).toBe("2520")
    await editor().getByRole("button", { name: "Use 5%, 25%, 50%, 100% over a day" }).click()
    expect(await Promise.all([1, 2, 3, 4].map((n) => editor().getByLabel(`Step ${n}: share (%)`).inputValue()))).toEqual(["5", "25", "50", "100"])
    expect(await editor().getByLabel("Step 1: hold (minutes)").inputValue()).toBe("360")
    // Short holds for the test: 3 seconds at 5% and 25%, then 50% held an hour.
    await editor().getByLabel("Step 1: hold (minutes)").fill("0.05")
    await editor().getByLabel("Step 2: hold (minutes)").fill("0.05")
    await editor().getByRole("button", { name: "Add guardrail" }).click()
    await editor().getByLabel("Guardrail 1: key").fill("errors")
    await editor().getByLabel("Guardrail 1: event").fill("checkout-error")
    await editor().getByLabel("On harm").selectOption("rollback")
    // 25% after 50% is refused by the API, in its words, on the step it names.
    await editor().getByLabel("Step 3: share (%)").fill("20")
    await editor().getByRole("button", { name: "Create draft" }).click()
    await editor().getByRole("alert").getByText("Step 3, share: must be greater than the previous step's weight (25000)").waitFor()
    expect(await editor().getByLabel("Step 3: share (%)").getAttribute("aria-invalid")).toBe("true")
    expect(await plans()).toEqual([])
    await checkWidths("create-refused")

    await editor().getByLabel("Step 3: share (%)").fill("50")
    await editor().getByRole("button", { name: "Create draft" }).click()
    await panel().getByText("Release plan created as a draft.").waitFor()
    const [made] = await plans()
    expect(made).toMatchObject({
      status: "draft",
      onHarm: "rollback",
      steps: [{ weight: 5_000, holdMinutes: 0.05 }, { weight: 25_000, holdMinutes: 0.05 }, { weight: 50_000, holdMinutes: 360 }, { weight: 100_000, holdMinutes: 360 }],
      guardrails: [{ key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }]
    })
    // The list is read again after the save's message: wait for it.
    await expect.poll(steps).toEqual(["5% for 3 s: next", "25% for 3 s: later", "50% for 6 h: later", "100% for 6 h: later"])

    // A draft changes in the same editor, filled with what was saved.
    await panel().getByRole("button", { name: "Edit draft" }).click()
    const edit = page.getByRole("form", { name: "Edit the draft" })
    expect(await edit.getByLabel("Guardrail 1: event").inputValue()).toBe("checkout-error")
    expect(await edit.getByLabel("Step 2: hold (minutes)").inputValue()).toBe("0.05")
    await edit.getByLabel("Alpha").fill("0.1")
    await edit.getByRole("button", { name: "Save draft" }).click()
    await panel().getByText("Draft saved.").waitFor()
    expect((await plans())[0]).toMatchObject({ status: "draft", alpha: 0.1, onHarm: "rollback", steps: made!.steps })
    await expect.poll(() => panel().getByText(/alpha 0\.1\.$/).count()).toBe(1)
  })

  it("starts it: the timeline advances by itself to the step that holds, with the guardrail's figures", async () => {
    await panel().getByRole("button", { name: "Start plan" }).click()
    await panel().getByRole("heading", { name: "Ramping v2: running" }).waitFor()
    // 5% and 25% hold 3 seconds each; the scheduler applies each step within a second.
    await expect.poll(steps, { timeout: 20_000, interval: 250 }).toEqual([
      "5% for 3 s: done",
      "25% for 3 s: done",
      "50% for 6 h: current",
      expect.stringMatching(/^100% for 6 h: next, due \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)
    ])
    expect(await ruleShares()).toEqual([{ variationKey: "v2", weight: 50_000 }, { variationKey: "classic", weight: 50_000 }])
    // The page follows the steps live, and says who made them.
    await page.getByText(/^Targeting in production changed by a release plan /).waitFor()
    const row = panel().getByRole("row", { name: /errors/ })
    await expect.poll(() => row.textContent()).toMatch(/0, 0.*0, 0.*no data yet.*waiting for 100 units in each arm/)
    // The same error rate in both arms: figures, and no harm.
    await sendTraffic("even", [{ variationKey: "v2", units: 300, erred: 30 }, { variationKey: "classic", units: 300, erred: 30 }])
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toMatch(/^errors \(lower is better\)300, 0\.1300, 0\.10\.0% \(-[\d.]+% to \+[\d.]+%\)no harm shown$/)
    expect((await plans())[0]!.status).toBe("running")
    await checkWidths("running")
  })

  it("pauses it at its weight and resumes it", async () => {
    await panel().getByRole("button", { name: "Pause plan" }).click()
    await panel().getByText("Release plan paused at 50%.").waitFor()
    await panel().getByText("Paused by hand: the rule keeps its weight until the plan resumes.").waitFor()
    expect((await plans())[0]).toMatchObject({ status: "paused", currentStep: 2 })
    expect(await steps()).toEqual(["5% for 3 s: done", "25% for 3 s: done", "50% for 6 h: current", "100% for 6 h: next"])
    await panel().getByRole("button", { name: "Resume plan" }).click()
    await panel().getByRole("heading", { name: "Ramping v2: running" }).waitFor()
    expect((await plans())[0]).toMatchObject({ status: "running", currentStep: 2 })
  })

  it("refuses a second plan's start with the API's reason", async () => {
    const [first] = await plans()
    await api("POST", PLANS, {
      environment: "production",
      ruleId: "everyone",
      variationKey: "v2",
      steps: [{ weight: 10_000, holdMinutes: 60 }, { weight: 100_000, holdMinutes: 60 }],
      guardrails: [{ key: "errors", event: "checkout-error", kind: "conversion", goal: "decrease", role: "guardrail" }],
      onHarm: "rollback"
    })
    await open(page, `#/flags/${FLAG.key}/release-plans?environment=production`)
    const draft = panel().getByRole("article").filter({ has: page.getByRole("heading", { name: "Ramping v2: draft: not started" }) })
    await draft.getByRole("button", { name: "Start plan" }).click()
    await draft.getByRole("alert").getByText(`Release plan '${first!.id}' already ramps flag '${FLAG.key}' in 'production'; cancel it first`).waitFor()
    expect((await plans()).map((p) => p.status)).toEqual(["running", "draft"])
  })

  it("cancels it after asking; the rule keeps its weight", async () => {
    const running = panel().getByRole("article").filter({ has: page.getByRole("heading", { name: "Ramping v2: running" }) })
    await running.getByRole("button", { name: "Cancel plan" }).click()
    await page.getByRole("dialog").getByText(/^Cancel the release plan of v2\?/).waitFor()
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    expect((await plans())[0]!.status).toBe("running")
    await running.getByRole("button", { name: "Cancel plan" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await panel().getByText("Release plan cancelled; the rule keeps 50%.").waitFor()
    expect((await plans()).map((p) => p.status)).toEqual(["cancelled", "draft"])
    expect(await ruleShares()).toEqual([{ variationKey: "v2", weight: 50_000 }, { variationKey: "classic", weight: 50_000 }])
    expect(await panel().getByRole("region", { name: `Earlier release plans of ${FLAG.key} in production` }).getByRole("row").nth(1).textContent()).toMatch(/^v25%, 25%, 50%, 100%cancelled/)
  })

  it("starts the second plan; a treatment that errs twice as often rolls it back, with the figures that decided it", async () => {
    const second = panel().getByRole("article").filter({ has: page.getByRole("heading", { name: "Ramping v2: draft: not started" }) })
    await second.getByRole("button", { name: "Start plan" }).click()
    await panel().getByRole("heading", { name: "Ramping v2: running" }).waitFor()
    await expect.poll(ruleShares).toEqual([{ variationKey: "v2", weight: 10_000 }, { variationKey: "classic", weight: 90_000 }])
    await sendTraffic("harm", [{ variationKey: "v2", units: 400, erred: 80 }, { variationKey: "classic", units: 3_600, erred: 360 }])
    await panel().getByRole("heading", { name: "Ramping v2: stopped by a guardrail" }).waitFor({ timeout: 15_000 })
    await panel().getByText(/^A guardrail showed harm .* at 10%: the plan rolled back to 0%\.$/).waitFor()
    expect(await ruleShares()).toEqual([{ variationKey: "v2", weight: 0 }, { variationKey: "classic", weight: 100_000 }])
    const figures = panel().getByRole("region", { name: "The guardrails when harm was found" })
    expect(await figures.getByRole("row", { name: /errors/ }).textContent()).toMatch(/^errors \(lower is better\)400, 0\.23600, 0\.1\+100\.0% \(\+.*% to \+.*%\)harmed$/)
    await panel().getByRole("button", { name: "Resume plan" }).waitFor()
    // The start's message described the plan before its steps and harm: it is gone.
    expect(await panel().getByText(/^Release plan started/).count()).toBe(0)
    await checkWidths("harmed")
  })

  it("a viewer sees the plans and no button", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    const signInForm = page.getByRole("form", { name: "Sign in with email and password" })
    await signInForm.getByLabel("Email").fill("vic@example.com")
    await signInForm.getByLabel("Password").fill(PASSWORD)
    await signInForm.getByRole("button", { name: "Sign in", exact: true }).click()
    await open(page, `#/flags/${FLAG.key}/release-plans?environment=production`)
    await panel().getByRole("heading", { name: "Ramping v2: stopped by a guardrail" }).waitFor()
    await panel().getByRole("region", { name: "The guardrails when harm was found" }).waitFor()
    await panel().getByRole("region", { name: `Earlier release plans of ${FLAG.key} in production` }).waitFor()
    expect(await panel().getByRole("button").count()).toBe(0)
    await checkWidths("viewer")
    expect(cspViolations).toEqual([])
  })
})
