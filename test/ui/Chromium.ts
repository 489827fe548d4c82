/**
 * Launching the dashboard's Chromium and the steps every visit starts with, without vitest, so a
 * script outside the tests (scripts/docs-screenshot.ts) drives the same browser; Browser.ts
 * re-exports them beside the test helpers.
 */
import chromium from "@sparticuz/chromium"
import { type Browser, chromium as playwright, type Page } from "playwright-core"

/**
 * The package's arguments are made for serverless functions; two of them would switch off the very
 * protections the dashboard relies on (same-origin policy, mixed content), so they are left out.
 * It runs Chromium as one process: one page for the whole file (closing a page ends the browser),
 * and two browser contexts there share their cookies: two people need a browser each.
 */
const UNSAFE = new Set(["--disable-web-security", "--allow-running-insecure-content"])

export const launch = async (): Promise<Browser> =>
  playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args.filter((a) => !UNSAFE.has(a)), headless: true })

/** Signs in on the sign-in page with `key`. */
export const signIn = async (page: Page, key: string): Promise<void> => {
  await page.getByLabel("Server key").fill(key)
  await page.getByRole("button", { name: "Sign in with the key" }).click()
}

/** Goes to a route of the dashboard (`#/keys`) without reloading the page. */
export const open = async (page: Page, hash: string): Promise<void> => {
  await page.evaluate((h) => (location.hash = h), hash)
}

