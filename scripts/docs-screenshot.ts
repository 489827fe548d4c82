/**
 * Makes `docs/guide/dashboard.png` from the current dashboard: starts a seeded server on a fresh SQLite
 * file (the dashboard tests' server, test/ui/SqliteServer.ts), gives it a flag worth looking at,
 * signs in with the seeded global key in the headless Chromium the tests use (test/ui/Chromium.ts),
 * opens the flag's Targeting section in production at a laptop's width, and writes the top of the
 * page as a PNG (a clip, so no image tool is needed afterwards).
 *
 *   npm run docs:screenshot            # writes docs/guide/dashboard.png
 *   npm run docs:screenshot -- out.png # writes out.png instead
 */
import { statSync } from "node:fs"
import { request } from "../test/http/fixtures.js"
import { launch, open, signIn } from "../test/ui/Chromium.js"
import { startSqliteServer } from "../test/ui/SqliteServer.js"

const OUT = process.argv[2] ?? "docs/guide/dashboard.png"
const WIDTH = 1280
const HEIGHT = 900

const server = await startSqliteServer("docs-screenshot")
const browser = await launch()
try {
  const api = async (method: string, path: string, body: unknown) => {
    const reply = await request(server.url, method, path, { key: server.keys.global, body })
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`)
  }
  await api("POST", "/v1/projects/p1/environments", { key: "staging", name: "Staging" })
  await api("POST", "/v1/projects/p1/segments", {
    key: "staff",
    name: "Staff",
    conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }]
  })
  await api("POST", "/v1/projects/p1/flags", {
    key: "new-checkout",
    name: "New checkout",
    description: "The one-page checkout, rolled out by plan and country",
    type: "string",
    variations: [
      { key: "one-page", value: "one-page", name: "One page" },
      { key: "classic", value: "classic", name: "Classic" }
    ]
  })
  await api("PUT", "/v1/projects/p1/flags/new-checkout/targeting", {
    environment: "production",
    enabled: true,
    defaultVariationKey: "classic",
    offVariationKey: "classic",
    rules: [
      { name: "Staff", conditions: [{ operator: "inSegment", values: ["staff"] }], variationKey: "one-page" },
      { name: "Pro in the US", conditions: [{ attribute: "plan", operator: "in", values: ["pro", "enterprise"] }, { attribute: "country", operator: "in", values: ["US"] }], variationKey: "one-page" },
      { name: "Everyone else", conditions: [], rollout: { bucketBy: "key", variations: [{ variationKey: "one-page", weight: 25_000 }, { variationKey: "classic", weight: 75_000 }] } }
    ]
  })
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } })
  page.setDefaultTimeout(15_000)
  await page.goto(`${server.url}/ui/`)
  await signIn(page, server.keys.global)
  await page.getByLabel("Project").selectOption("p1")
  await open(page, "#/flags/new-checkout/targeting?environment=production")
  await page.getByRole("form", { name: "Targeting in production" }).waitFor()
  await page.getByText("Changes made elsewhere show here as they happen.").waitFor()
  await page.screenshot({ path: OUT, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } })
  console.log(`${OUT}: ${WIDTH}×${HEIGHT}, ${Math.round(statSync(OUT).size / 1024)} KB`)
} finally {
  await browser.close()
  await server.close()
}
