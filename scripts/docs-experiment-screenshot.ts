/**
 * Makes `docs/guide/experiment-results.png`: an experiment's results page from the current
 * sources. Starts a seeded server on a fresh SQLite file (test/ui/SqliteServer.ts), makes the
 * flag and starts the experiment of the dashboard's results test (test/ui/ExperimentSetup.ts),
 * sends its traffic as SDKs would (8,000 units a variation exposed; Checkout v2 buying more often,
 * 12.5% against 10%, for a little less), and writes the page's results at a laptop's width in the
 * tests' headless Chromium.
 *
 *   npm run docs:screenshot:experiment            # writes docs/guide/experiment-results.png
 *   npm run docs:screenshot:experiment -- out.png # writes out.png instead
 */
import { statSync } from "node:fs"
import { launch, open, signIn } from "../test/ui/Chromium.js"
import { sendTraffic, setUpExperiment } from "../test/ui/ExperimentSetup.js"
import { startSqliteServer } from "../test/ui/SqliteServer.js"

const OUT = process.argv[2] ?? "docs/guide/experiment-results.png"
const WIDTH = 1280

const server = await startSqliteServer("docs-experiment-screenshot")
const browser = await launch()
try {
  await setUpExperiment(server)
  await sendTraffic(server, "docs", [
    { variationKey: "classic", units: 8_000, purchased: 0.1, spend: 40, errored: 0.02 },
    { variationKey: "v2", units: 8_000, purchased: 0.125, spend: 36, errored: 0.019 }
  ])
  const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } })
  page.setDefaultTimeout(15_000)
  await page.goto(`${server.url}/ui/`)
  await signIn(page, server.keys.global)
  await page.getByLabel("Project").selectOption("p1")
  await open(page, "#/experiments/checkout-redesign")
  await page.getByText(/raised conversion/).waitFor()
  await page.getByText("Changes made elsewhere show here as they happen.").waitFor()
  // From the Results heading to the end of the first two metrics: what people read first.
  const top = (await page.getByRole("heading", { name: "Results", exact: true }).boundingBox())!.y - 12
  const bottom = (await page.locator("section.metric-result").nth(1).boundingBox())!
  await page.screenshot({ path: OUT, fullPage: true, clip: { x: 0, y: top, width: WIDTH, height: bottom.y + bottom.height + 12 - top } })
  console.log(`${OUT}: ${WIDTH}×${Math.round(bottom.y + bottom.height + 12 - top)}, ${Math.round(statSync(OUT).size / 1024)} KB`)
} finally {
  await browser.close()
  await server.close()
}
