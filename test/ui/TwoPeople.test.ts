/**
 * Two people on the same flags from two browsers, in a real Chromium against a real server on
 * SQLite: Ada on a laptop (1,440 px) and Bob on a phone (390 px), each in a browser of their own
 * (their own cookies: in one single-process Chromium, two contexts share them), each signed in with email and password, so the live stream is read
 * with a session cookie. A switch on the flags list, a targeting save in one environment and a
 * definition change made by one show on the other's open page within 2 s without a reload, both
 * ways; the person editing another environment's targeting still saves (no 412); when both edit the
 * same environment, the second is told who changed it and takes their change over. Axe-clean at
 * both widths.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request, type TestServer } from "../http/fixtures.js"
import { checkPage, launch, open, showSection } from "./Browser.js"
import { startSqliteServer } from "./SqliteServer.js"

let server: TestServer
/** A browser each: Chromium here runs as one process (Browser.ts), where contexts share cookies. */
const browsers: Array<Browser> = []

const ADA = { email: "ada@example.com", name: "Ada Laptop", password: "correct horse battery", width: 1440, height: 900 }
const BOB = { email: "bob@example.com", name: "Bob Phone", password: "staple of twelve chars", width: 390, height: 844 }
type Person = typeof ADA
const pages = new Map<Person, Page>()
const pageOf = (who: Person) => pages.get(who)!

const LIVE = "Changes made elsewhere show here as they happen."
const WITHIN = 2_000
const BOOLEAN = [{ key: "on", value: true }, { key: "off", value: false }]

/** An API call with the global key (the test's own view of the server, not the pages'). */
const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body as Record<string, any>
}

/** A person with a password, an editor of p1. */
const person = async (who: Person) => {
  const invited = await api("POST", "/v1/users", { email: who.email, name: who.name, projects: [{ projectId: "p1", role: "editor" }] })
  const token = new URL(invited.setupUrl).hash.replace(/^#token=/, "")
  const set = await request(server.url, "POST", "/v1/auth/setup", { body: { token, password: who.password } })
  expect(set.status, set.text).toBe(200)
}

/** A browser of their own at their width, signed in with email and password. */
const signIn = async (who: Person) => {
  const browser = await launch()
  browsers.push(browser)
  const page = await browser.newPage({ viewport: { width: who.width, height: who.height } })
  page.setDefaultTimeout(10_000)
  await page.goto(`${server.url}/ui/`)
  const form = page.getByRole("form", { name: "Sign in with email and password" })
  await form.getByLabel("Email").fill(who.email)
  await form.getByLabel("Password").fill(who.password)
  await form.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.locator("details.person-menu").waitFor()
  pages.set(who, page)
}

/** How long until `check` holds, polling every 25 ms; fails past `WITHIN`. */
const within = async (what: string, check: () => Promise<boolean>): Promise<number> => {
  const start = performance.now()
  while (performance.now() - start < WITHIN) {
    if (await check()) return Math.round(performance.now() - start)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`${what}: not within ${WITHIN} ms`)
}

/** Opens `hash` on `who`'s page and waits until it follows the project's changes. */
const openLive = async (who: Person, hash: string, ready: (page: Page) => Promise<unknown>) => {
  const page = pageOf(who)
  await open(page, hash)
  // A mark on this document: gone if the page reloads (checked in `check`).
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
  await ready(page)
  await page.getByText(LIVE).waitFor()
}
const targetingForm = (who: Person, environment: string) => pageOf(who).getByRole("form", { name: `Targeting in ${environment}` })
const enabled = (who: Person, environment: string) => pageOf(who).getByLabel(`Enabled in ${environment}`)
const version = async (who: Person) => (await pageOf(who).locator(".page-head p.muted").textContent())?.match(/Version (\d+),/)?.[1]
const lastChange = (who: Person) => pageOf(who).locator(".live-change").textContent()
const stored = async (key: string) => (await api("GET", `/v1/projects/p1/flags/${key}`)) as { version: number; name: string; description: string | null; configs: Array<{ environmentKey: string; enabled: boolean; version: number }> }
/** Still the same document (no reload), axe-clean, and a screenshot. */
const check = async (who: Person, name: string) => {
  expect(await pageOf(who).evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), `${who.name}'s page reloaded`).toBe(true)
  await checkPage(pageOf(who), `two-people-${name}-${who.width}`)
}

beforeAll(async () => {
  server = await startSqliteServer("two-people")
  await api("POST", "/v1/projects/p1/environments", { key: "staging", name: "Staging" })
  for (const key of ["listed", "shared", "described", "contested"]) await api("POST", "/v1/projects/p1/flags", { key, type: "boolean", variations: BOOLEAN })
  await person(ADA)
  await person(BOB)
  await signIn(ADA)
  await signIn(BOB)
}, 120_000)

afterAll(async () => {
  for (const browser of browsers) await browser.close()
  await server?.close()
})

describe("two people on the same flags, on a laptop and on a phone", () => {
  it("a switch on the flags list shows on the other's flags list within 2 s, both ways", async () => {
    for (const who of [ADA, BOB]) await openLive(who, "#/flags", (page) => page.getByRole("switch", { name: "listed in staging" }).waitFor())
    const timings: Array<string> = []
    for (const [by, seer, environment] of [[ADA, BOB, "staging"], [BOB, ADA, "development"]] as const) {
      await pageOf(by).getByRole("switch", { name: `listed in ${environment}` }).click()
      const seen = await within(`${by.name}'s switch on ${seer.name}'s list`, async () =>
        (await pageOf(seer).getByRole("switch", { name: `listed in ${environment}` }).getAttribute("aria-checked")) === "true")
      timings.push(`${by.name} → ${seer.name}: ${seen} ms`)
    }
    expect((await stored("listed")).configs.filter((c) => c.enabled).map((c) => c.environmentKey).sort()).toEqual(["development", "staging"])
    console.log(`flags list switches: ${timings.join(", ")}`)
    for (const who of [ADA, BOB]) await check(who, "flags-list")
  })

  it("a targeting save in one environment shows on the other's flag page within 2 s, and does not block their save in another", async () => {
    await openLive(ADA, "#/flags/shared/targeting?environment=development", () => targetingForm(ADA, "development").waitFor())
    await openLive(BOB, "#/flags/shared/targeting?environment=staging", () => targetingForm(BOB, "staging").waitFor())
    // Bob starts an edit in staging; Ada saves development meanwhile.
    await enabled(BOB, "staging").check()
    await enabled(ADA, "development").check()
    await pageOf(ADA).getByRole("button", { name: "Save targeting in development" }).click()
    await pageOf(ADA).getByText("Targeting in development saved (version 2).").waitFor()
    const toBob = await within("Ada's development save on Bob's page", async () => (await version(BOB)) === "2")
    expect(await lastChange(BOB)).toMatch(new RegExp(`^Targeting in development changed by ${ADA.email} `))
    // Bob's edit is still there, and his save goes through (his environment did not change).
    expect(await enabled(BOB, "staging").isChecked()).toBe(true)
    expect(await pageOf(BOB).getByRole("alert").count()).toBe(0)
    await pageOf(BOB).getByRole("button", { name: "Save targeting in staging" }).click()
    await pageOf(BOB).getByText("Targeting in staging saved (version 3).").waitFor()
    const toAda = await within("Bob's staging save on Ada's page", async () => (await version(ADA)) === "3")
    expect(await lastChange(ADA)).toMatch(new RegExp(`^Targeting in staging changed by ${BOB.email} `))
    // Ada looks at staging: Bob's change is there without a reload.
    await pageOf(ADA).getByLabel("Environment", { exact: true }).selectOption("staging")
    await targetingForm(ADA, "staging").waitFor()
    expect(await enabled(ADA, "staging").isChecked()).toBe(true)
    expect((await stored("shared")).configs.map((c) => [c.environmentKey, c.enabled])).toEqual([["development", true], ["production", false], ["staging", true]])
    console.log(`flag page targeting: Ada → Bob ${toBob} ms, Bob → Ada ${toAda} ms`)
    for (const who of [ADA, BOB]) await check(who, "flag-page")
  })

  it("a definition change shows on the other's open flag page within 2 s, both ways", async () => {
    await openLive(ADA, "#/flags/described/definition", () => pageOf(ADA).getByRole("form", { name: "Flag definition" }).waitFor())
    await openLive(BOB, "#/flags/described/definition", () => pageOf(BOB).getByRole("form", { name: "Flag definition" }).waitFor())
    const description = (who: Person) => pageOf(who).getByRole("form", { name: "Flag definition" }).getByLabel("Description")
    const timings: Array<string> = []
    for (const [by, seer, words] of [[ADA, BOB, "Written on a laptop"], [BOB, ADA, "Written on a phone"]] as const) {
      await description(by).fill(words)
      await pageOf(by).getByRole("button", { name: "Save definition" }).click()
      await pageOf(by).getByText(/^Definition saved \(version \d+\)\.$/).waitFor()
      const seen = await within(`${by.name}'s definition on ${seer.name}'s page`, async () => (await description(seer).inputValue()) === words)
      expect(await lastChange(seer)).toMatch(new RegExp(`^Name, description or variations changed by ${by.email} `))
      timings.push(`${by.name} → ${seer.name}: ${seen} ms`)
    }
    expect((await stored("described")).description).toBe("Written on a phone")
    console.log(`definition: ${timings.join(", ")}`)
    for (const who of [ADA, BOB]) await check(who, "definition")
  })

  it("both editing the same environment: the second is told who changed it, takes it over and saves", async () => {
    for (const who of [ADA, BOB]) await openLive(who, "#/flags/contested/targeting?environment=staging", () => targetingForm(who, "staging").waitFor())
    await enabled(BOB, "staging").check()
    await enabled(ADA, "staging").check()
    await pageOf(ADA).getByRole("button", { name: "Save targeting in staging" }).click()
    await pageOf(ADA).getByText("Targeting in staging saved (version 2).").waitFor()
    const notice = pageOf(BOB).getByRole("alert").filter({ hasText: "You are editing the targeting in staging" })
    const shown = await within("Ada's staging save told to Bob", async () => (await notice.count()) === 1)
    expect(await notice.textContent()).toMatch(new RegExp(`Targeting in staging changed by ${ADA.email} .*You are editing the targeting in staging`))
    await check(BOB, "conflict")
    await notice.getByRole("button", { name: "Take their change into the editor" }).click()
    await within("the notice gone", async () => (await notice.count()) === 0)
    expect(await enabled(BOB, "staging").isChecked()).toBe(true)
    // Bob makes his change again on top of Ada's: switched off, and it saves.
    await enabled(BOB, "staging").uncheck()
    await pageOf(BOB).getByRole("button", { name: "Save targeting in staging" }).click()
    await pageOf(BOB).getByText("Targeting in staging saved (version 3).").waitFor()
    const back = await within("Bob's save on Ada's page", async () => !(await enabled(ADA, "staging").isChecked()))
    expect(await lastChange(ADA)).toMatch(new RegExp(`^Targeting in staging changed by ${BOB.email} `))
    const staging = (await stored("contested")).configs.find((c) => c.environmentKey === "staging")!
    expect([staging.enabled, staging.version]).toEqual([false, 3])
    console.log(`same environment: notice after ${shown} ms, Bob's save on Ada's page after ${back} ms`)
    for (const who of [ADA, BOB]) await check(who, "after-conflict")
  })
})
