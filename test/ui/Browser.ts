/**
 * One real Chromium for the dashboard's tests: @sparticuz/chromium ships the binary inside its
 * npm package (no system browser, no download step) and playwright-core drives it. Also: the
 * axe-core accessibility check (WCAG 2.1 A and AA rules) and screenshots under test-results/.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { expect } from "vitest"
import { launch, signIn } from "./Chromium.js"

export { launch, open, signIn } from "./Chromium.js"

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

export interface Violation {
  readonly id: string
  readonly help: string
  readonly nodes: ReadonlyArray<string>
}

/**
 * The WCAG 2.1 A and AA violations on the page as it is now (axe is injected once per document).
 * Injected through the DevTools protocol (`evaluate`), not `addScriptTag`: the dashboard's
 * Content-Security-Policy rightly refuses an inline script tag.
 */
export const accessibilityViolations = async (page: Page): Promise<ReadonlyArray<Violation>> => {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: Array<string> }> }> }> } }).axe
    const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
    return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }))
  })
}

/**
 * A desktop-sized page (1280 x 900, 10 s default timeout) whose console errors naming the
 * Content Security Policy are pushed to `cspViolations`: every page test checks it stays empty.
 */
export const watchedPage = async (browser: Browser, cspViolations: Array<string>): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.setDefaultTimeout(10_000)
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspViolations.push(m.text())
  })
  return page
}

const SCREENSHOTS = join(process.cwd(), "test-results", "dashboard")

/** A full-page screenshot for a reviewer, under test-results/dashboard/; its path. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/** No WCAG 2.1 A/AA violation on the page as it is, and a screenshot of it under `name` (its path returned). */
export const checkPage = async (page: Page, name: string): Promise<string> => {
  const path = await screenshot(page, name)
  const violations = await accessibilityViolations(page)
  if (violations.length > 0) throw new Error(`${name}: accessibility violations: ${JSON.stringify(violations, null, 2)}`)
  return path
}

/** Shows one section of a flag's page ("Targeting", "Definition", "Schedules", "Release plans", "Evaluations", "History") by its tab. */
export const showSection = async (page: Page, name: string): Promise<void> => {
  const tab = page.getByRole("tab", { name, exact: true })
  await tab.click()
  await expect.poll(() => tab.getAttribute("aria-selected")).toBe("true")
}

/**
 * A browser with one page on the dashboard of the server at `url`, signed in with `key` and
 * `projectId` chosen: where each dashboard test file starts. The page is `watchedPage`'s (CSP
 * errors pushed to `cspViolations` when given), `width` pixels wide when given.
 */
export const openSignedIn = async (
  url: string,
  key: string,
  projectId: string,
  options: { readonly cspViolations?: Array<string>; readonly width?: number } = {}
): Promise<{ browser: Browser; page: Page }> => {
  const browser = await launch()
  const page = await watchedPage(browser, options.cspViolations ?? [])
  if (options.width !== undefined) await page.setViewportSize({ width: options.width, height: 900 })
  await page.goto(`${url}/ui/`)
  await signIn(page, key)
  await page.getByLabel("Project").selectOption(projectId)
  return { browser, page }
}
