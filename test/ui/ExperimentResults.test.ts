/**
 * An experiment's results page in a real browser against a real server on SQLite (the experiment
 * made and started through the API): per metric the verdict in words and the lift chart (SVG
 * with its title and description, and the figures as a table), the sample-ratio banner over a
 * skewed split, the targeting changes on the timeline, and the page following new data live
 * (at once on a targeting change from the events stream, and by reading the results again while
 * the experiment runs). Checked at 1,440 and 360 px wide, axe-clean, no CSP violation.
 *
 * The server's results route is not there yet: the browser's request for it is answered with a
 * body the domain's statistics engine computes from per-variation sums (ExperimentSetup.ts), and
 * the targeting changes from the server's real audit log.
 */
import type { Browser, Page, Route } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ExperimentResults } from "../../src/domain/experiments/Results.js"
import type { TestServer } from "../http/fixtures.js"
import { checkPage, launch, open, signIn, watchedPage } from "./Browser.js"
import { apiOf, type Arm, converted, FLAG, resultsBody, setUpExperiment, TARGETING } from "./ExperimentSetup.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
let browser: Browser
let page: Page
const cspViolations: Array<string> = []

/** The arms the results route answers with now. */
let arms: ReadonlyArray<Arm> = []
let reads = 0

const arm = (variationKey: Arm["variationKey"], units: number, conversion: number, revenuePerUnit: number, errors: number): Arm => ({
  variationKey,
  units,
  metrics: {
    conversion: converted(units, conversion),
    // each converting unit spends `revenuePerUnit / conversion` once: sum and sum of squares of those amounts
    revenue: { sum: units * revenuePerUnit, sumSquares: Math.round(units * conversion) * (revenuePerUnit / conversion) ** 2 },
    errors: converted(units, errors)
  }
})

const targetingChanges = async () => {
  const audit = (await apiOf(server)("GET", `/v1/projects/p1/audit?resourceType=flag&resourceKey=${FLAG.key}&environment=production`)) as {
    data: Array<ExperimentResults["checks"]["targetingChanges"][number]>
  }
  const started = ((await apiOf(server)("GET", "/v1/projects/p1/experiments/checkout-redesign")) as { startedAt: string }).startedAt
  return audit.data.filter((e) => e.action === "targeting.updated" && e.at >= started).reverse().map((e) => ({ at: e.at, action: e.action, actor: e.actor }))
}

const answerResults = async (route: Route) => {
  reads++
  await route.fulfill({ json: resultsBody(arms, await targetingChanges()) })
}

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
  await page.route("**/v1/projects/p1/experiments/checkout-redesign/results", answerResults)
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
    arms = [arm("classic", 5_000, 0.1, 4, 0.02), arm("v2", 5_000, 0.125, 5, 0.021)]
    const expected = resultsBody(arms, []).metrics[0]!.comparisons[0]!
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
    expect(await row.textContent()).toContain("5,000")
    expect(await row.textContent()).toContain(`+${pct(expected.relative!.estimate)} (${pct(low)} to ${pct(high)})`)
    // the guardrail: errors up a little, no clear difference
    await card("errors").getByText(/Checkout v2 changed errors by \+.*: no clear difference yet\./).waitFor()
    expect(await page.getByText("Sample ratio mismatch").count()).toBe(0)
    await page.getByText("No change to the targeting of new-checkout in production since the experiment started.").waitFor()
    await checkWidths("clear")
  })

  it("puts a banner over a mismatched sample and trusts no verdict below it", async () => {
    arms = [arm("classic", 5_000, 0.1, 4, 0.02), arm("v2", 4_400, 0.125, 5, 0.021)]
    await page.reload()
    const banner = page.getByRole("alert").filter({ hasText: "Sample ratio mismatch: do not trust these results." })
    await banner.waitFor()
    expect(await banner.textContent()).toContain("Checkout v2: 4,400 units, 4,700 expected")
    expect(await banner.textContent()).toContain("Classic checkout: 5,000 units, 4,700 expected")
    await card("conversion").getByText(/but the sample is mismatched: do not trust this\.$/).waitFor()
    expect(await page.getByText(/raised conversion/).count()).toBe(0)
    await checkWidths("mismatch")
  })

  it("follows new data live: a targeting change at once, on the timeline; new units within the polling interval", async () => {
    arms = [arm("classic", 5_000, 0.1, 4, 0.02), arm("v2", 5_000, 0.125, 5, 0.021)]
    await page.reload()
    await card("conversion").getByText(/raised conversion/).waitFor()
    // a change of the rule's split while it runs: the events stream makes the page read again at once
    const flag = (await apiOf(server)("GET", `/v1/projects/p1/flags/${FLAG.key}`)) as { configs: Array<{ environmentKey: string; rules: Array<{ id: string }> }> }
    const [beta, half] = flag.configs.find((c) => c.environmentKey === "production")!.rules
    await apiOf(server)("PUT", `/v1/projects/p1/flags/${FLAG.key}/targeting`, {
      ...TARGETING,
      rules: [
        { ...TARGETING.rules[0], id: beta!.id },
        { ...TARGETING.rules[1], id: half!.id, rollout: { bucketBy: "userId", variations: [{ variationKey: "v2", weight: 60_000 }, { variationKey: "classic", weight: 40_000 }] } }
      ]
    })
    const timeline = page.getByRole("region", { name: "Targeting changes while running" })
    await timeline.getByRole("listitem").filter({ hasText: /: targeting changed by an API key$/ }).waitFor({ timeout: 5_000 })
    expect(await timeline.getByRole("img").locator("desc").textContent()).toContain("1 targeting change, listed below.")
    expect(await timeline.locator(".timeline-change").count()).toBe(1)
    // the rule kept its id: the experiment still measures it
    await page.getByText("rule 2 “Half”").waitFor()
    await checkWidths("timeline")
    // more units arrive: shown without a reload when the page reads the results again
    const before = reads
    arms = [arm("classic", 7_000, 0.1, 4, 0.02), arm("v2", 7_000, 0.125, 5, 0.021)]
    await card("conversion").getByRole("row", { name: /^Checkout v2/ }).getByText("7,000").waitFor({ timeout: 20_000 })
    expect(reads).toBe(before + 1)
    expect(cspViolations).toEqual([])
  }, 40_000)
})
