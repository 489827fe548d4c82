/**
 * An experiment's results page in a real browser against a real server on SQLite: the experiment
 * made and started through the API, its units exposed and their purchases and errors tracked as
 * SDKs send them (POST /v1/exposures, POST /v1/track), the page's figures checked against the
 * same answer of GET .../results read through the API. Per metric the verdict in words and the
 * lift chart (SVG with its title and description, the figures as a table), the targeting changes
 * on the timeline, the page following new data live (at once on a targeting change from the
 * events stream; new units by reading the results again while the experiment runs), and the
 * sample-ratio banner over a skewed stream. At 1,440 and 360 px wide, axe-clean, no CSP violation.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ExperimentResults } from "../../src/domain/experiments/Results.js"
import type { TestServer } from "../http/fixtures.js"
import { checkPage, launch, open, signIn, watchedPage } from "./Browser.js"
import { apiOf, FLAG, sendTraffic, setUpExperiment, TARGETING } from "./ExperimentSetup.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

/** The results as the API answers them now. */
const results = async () => (await apiOf(server)("GET", "/v1/projects/p1/experiments/checkout-redesign/results")) as ExperimentResults
const conversionOf = (r: ExperimentResults) => r.metrics.find((m) => m.key === "conversion")!.comparisons[0]!

/** A metric's card, named by its heading (the metric's key, then its event). */
const card = (key: "conversion" | "errors") => page.getByRole("region", { name: new RegExp(`^${key} ${key === "errors" ? "checkout-error" : "purchase"},`) })

/** "4.1%" the way the page writes a share, computed here independently of the page's code. */
const pct = (x: number) => `${x < 0 ? "−" : ""}${(Math.abs(x) * 100).toFixed(1)}%`

const checkWidths = async (name: string) => {
  for (const width of [1440, 360]) {
    await page.setViewportSize({ width, height: 900 })
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(scroll, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0)
    await checkPage(page, `experiment-results-${name}-${width}`)
  }
  await page.setViewportSize({ width: 1440, height: 900 })
}

beforeAll(async () => {
  server = await startSqliteServer("experiment-results")
  await setUpExperiment(server)
  browser = await launch()
  page = await watchedPage(browser, cspViolations)
  await page.goto(`${server.url}/ui/`)
  await signIn(page, server.keys.global)
  await page.getByLabel("Project").selectOption("p1")
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("an experiment's results page", () => {
  it("gives each metric's verdict in words, its lift chart and its figures", async () => {
    await sendTraffic(server, "a", [
      { variationKey: "classic", units: 3_000, purchased: 0.1, spend: 40, errored: 0.02 },
      { variationKey: "v2", units: 3_000, purchased: 0.15, spend: 40, errored: 0.021 }
    ])
    const expected = conversionOf(await results())
    const [low, high] = expected.relative!.ci!
    expect(expected.verdict).toBe("better")
    await open(page, "#/experiments/checkout-redesign")
    const conversion = card("conversion")
    await conversion.getByText(`Checkout v2 raised conversion by ${pct(expected.relative!.estimate)} (${pct(low)} to ${pct(high)}).`).waitFor()
    const chart = conversion.getByRole("img", { name: /conversion: relative lift of each variation against Classic checkout/ })
    expect(await chart.locator("desc").textContent()).toContain(`Checkout v2: +${pct(expected.relative!.estimate)}`)
    expect(await chart.locator("text.lift-label").textContent()).toBe("Checkout v2: better")
    // the figures as a table: units of both, the treatment's lift with its interval
    const row = conversion.getByRole("row", { name: /^Checkout v2/ })
    expect(await row.textContent()).toContain("3,000")
    expect(await row.textContent()).toContain(`+${pct(expected.relative!.estimate)} (${pct(low)} to ${pct(high)})`)
    // the guardrail: errors up a little, no clear difference
    await card("errors").getByText(/Checkout v2 changed errors by \+.*: no clear difference yet\./).waitFor()
    expect(await page.getByText("Sample ratio mismatch").count()).toBe(0)
    await page.getByText("No change to the targeting of new-checkout in production since the experiment started.").waitFor()
    await checkWidths("clear")
  })

  it("follows new data live: a targeting change at once, on the timeline; new units within the polling interval", async () => {
    await card("conversion").getByText(/raised conversion/).waitFor()
    // a change to the flag's targeting while it runs (the beta list grows; the split stays): the
    // events stream makes the page read again at once
    const flag = (await apiOf(server)("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ id: string }> }> }
    const [beta, half] = flag.configs.find((c) => c.environmentKey === "production")!.rules
    await apiOf(server)("PUT", `/v1/projects/p1/flags/${FLAG.key}/targeting`, {
      ...TARGETING,
      rules: [
        { ...TARGETING.rules[0], id: beta!.id, conditions: [{ attribute: "beta", operator: "in", values: [true, "yes"] }] },
        { ...TARGETING.rules[1], id: half!.id }
      ]
    })
    const timeline = page.getByRole("region", { name: "Targeting changes while running" })
    await timeline.getByRole("listitem").filter({ hasText: /: targeting changed by an API key$/ }).waitFor({ timeout: 5_000 })
    expect(await timeline.getByRole("img").locator("desc").textContent()).toContain("1 targeting change, listed below.")
    expect(await timeline.locator(".timeline-change").count()).toBe(1)
    // the rule kept its id: the experiment still measures it
    await page.getByText("rule 2 “Half”").waitFor()
    await checkWidths("timeline")
    // more units arrive (no management event announces them): shown within the polling interval, without a reload
    await sendTraffic(server, "b", [
      { variationKey: "classic", units: 500, purchased: 0.1, spend: 40, errored: 0.02 },
      { variationKey: "v2", units: 500, purchased: 0.15, spend: 40, errored: 0.021 }
    ])
    await card("conversion").getByRole("row", { name: /^Checkout v2/ }).getByText("3,500").waitFor({ timeout: 20_000 })
    expect(cspViolations).toEqual([])
  }, 40_000)

  it("puts a banner over a mismatched sample and trusts no verdict below it", async () => {
    // a skewed stream: v2 loses 600 units somewhere (a redirect, a crash) before they are exposed
    await sendTraffic(server, "c", [
      { variationKey: "classic", units: 1_500, purchased: 0.1, spend: 40, errored: 0.02 },
      { variationKey: "v2", units: 900, purchased: 0.15, spend: 40, errored: 0.021 }
    ])
    expect((await results()).trustworthy).toBe(false)
    await page.reload()
    const banner = page.getByRole("alert").filter({ hasText: "Sample ratio mismatch: do not trust these results." })
    await banner.waitFor()
    expect(await banner.textContent()).toContain("Checkout v2: 4,400 units, 4,700 expected")
    expect(await banner.textContent()).toContain("Classic checkout: 5,000 units, 4,700 expected")
    await card("conversion").getByText(/but the sample is mismatched: do not trust this\.$/).waitFor()
    expect(await page.getByText(/raised conversion/).count()).toBe(0)
    await checkWidths("mismatch")
  })
})
