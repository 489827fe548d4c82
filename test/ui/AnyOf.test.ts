/**
 * "Any of these" blocks on the dashboard, in a real browser against a real server on SQLite: a
 * rule and a segment built with a block (options, their conditions, the limits of 20 options of
 * 20 conditions, one level), saved and served as the API evaluates them; the change preview words
 * the block; the segments list counts a flag naming the segment inside a block; the playground's
 * explain trace says which option held. Each view at 360 and 1,440 px: no sideways scroll and no
 * WCAG 2.1 A/AA violation (axe-core).
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
const WIDTHS = [360, 1440]

const api = async (method: string, path: string, body?: unknown) => {
  const reply = await request(server.url, method, path, { key: server.keys.global, ...(body === undefined ? {} : { body }) })
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300)
  return reply.body
}

const evaluate = async (flagKey: string, attributes: Record<string, unknown>) => {
  const reply = await request(server.url, "POST", "/v1/evaluate", { key: server.keys.client, body: { environment: "production", context: { key: "user-1", attributes } } })
  expect(reply.status).toBe(200)
  return (reply.body as { flags: Record<string, { value: unknown; reason: { kind: string } }> }).flags[flagKey]!
}

/** Fills condition `label` (its attribute, operator and one value). */
const fillCondition = async (label: string, attribute: string, operator: string, value: string) => {
  await page.getByLabel(`${label}: attribute`).fill(attribute)
  await page.getByLabel(`${label}: operator`).selectOption(operator)
  await page.getByRole("group", { name: `${label}: values` }).getByRole("button", { name: "Add value" }).click()
  await page.getByLabel(`${label}: value 1`).fill(value)
}

/** At each width: no sideways page scroll and no axe violation; then back to the desktop size. */
const checkWidths = async (view: string) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(scroll, `${view} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0)
    process.stdout.write(`screenshot: ${await checkPage(page, `anyof-${view}-${width}`)}\n`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

beforeAll(async () => {
  server = await startSqliteServer("anyof")
  await api("POST", "/v1/projects/p1/flags", { key: "checkout", type: "boolean", variations: BOOLEAN })
  await api("PUT", "/v1/projects/p1/flags/checkout/targeting", { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules: [] })
  ;({ browser, page } = await openSignedIn(server.url, server.keys.global, "p1"))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("an “any of these” block in a rule", () => {
  it("is built option by option, previewed in words, saved, and served as the API evaluates it", async () => {
    await open(page, "#/flags/checkout")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByRole("button", { name: "Add rule" }).click()
    await page.getByLabel("Rule 1: name").fill("DE or enterprise EU")
    await page.getByRole("button", { name: "Add “any of these” block to rule 1" }).click()
    const block = page.getByRole("group", { name: "Rule 1 condition 1: any of these" })
    await fillCondition("Rule 1 condition 1, option 1 condition 1", "country", "in", "DE")
    await block.getByRole("button", { name: "Add option to rule 1 condition 1" }).click()
    await fillCondition("Rule 1 condition 1, option 2 condition 1", "plan", "in", "enterprise")
    await block.getByRole("button", { name: "Add condition to rule 1 condition 1, option 2" }).click()
    await fillCondition("Rule 1 condition 1, option 2 condition 2", "region", "in", "eu")
    // one level: an option offers conditions only, never a block inside the block
    expect(await block.getByRole("button", { name: /any of these/ }).count()).toBe(1)
    expect(await block.getByRole("button", { name: /any of these/ }).textContent()).toContain("Remove")
    await page.getByLabel("Rule 1: serve").selectOption("on")
    const preview = page.getByRole("region", { name: "Change to production" })
    await expect.poll(() => preview.locator(".changes").textContent()).toContain(
      "Rule 1 'DE or enterprise EU' added: if (country in [DE] or (plan in [enterprise] and region in [eu])), serve on"
    )
    await checkWidths("rule")
    await page.getByRole("button", { name: "Save targeting in production" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Confirm" }).click()
    await page.getByText(/^Targeting in production saved/).waitFor()
    const flag = (await api("GET", "/v1/projects/p1/flags/checkout")) as { configs: Array<{ environmentKey: string; rules: Array<{ conditions: unknown }> }> }
    expect(flag.configs.find((c) => c.environmentKey === "production")!.rules[0]!.conditions).toEqual([
      {
        anyOf: [
          [{ attribute: "country", operator: "in", values: ["DE"] }],
          [{ attribute: "plan", operator: "in", values: ["enterprise"] }, { attribute: "region", operator: "in", values: ["eu"] }]
        ]
      }
    ])
    await expect.poll(async () => (await evaluate("checkout", { country: "DE" })).reason.kind).toBe("RULE_MATCH")
    expect((await evaluate("checkout", { plan: "enterprise", region: "eu" })).reason.kind).toBe("RULE_MATCH")
    expect((await evaluate("checkout", { plan: "enterprise", region: "us" })).reason.kind).toBe("FALLTHROUGH")
  })

  it("removes an option with its last condition, and the block with its last option", async () => {
    await page.getByRole("button", { name: "Remove rule 1 condition 1, option 2 condition 2" }).click()
    await page.getByRole("button", { name: "Remove rule 1 condition 1, option 2 condition 1" }).click()
    const block = page.getByRole("group", { name: "Rule 1 condition 1: any of these" })
    expect(await block.getByRole("group", { name: /^Option \d/ }).count()).toBe(1)
    await block.getByRole("button", { name: "Remove option 1 of rule 1 condition 1" }).click()
    expect(await block.count()).toBe(0)
    await page.getByLabel("Environment", { exact: true }).selectOption("development")
  })
})

describe("the playground's explain trace", () => {
  it("says which option of the block held, and the options tried before it", async () => {
    await open(page, "#/playground")
    await page.getByLabel("Environment", { exact: true }).selectOption("production")
    await page.getByLabel("Flag", { exact: true }).selectOption("checkout")
    await page.getByLabel("Context key").fill("user-1")
    await page.getByLabel("Context attributes (JSON object)").fill(JSON.stringify({ plan: "enterprise", region: "eu" }))
    await page.getByRole("button", { name: "Evaluate" }).click()
    const why = page.getByRole("region", { name: "Why" })
    await expect.poll(() => why.textContent()).toContain("any of these → matched (option 2 holds)")
    const text = (await why.textContent())!
    expect(text).toContain("option 1: not every condition holds")
    expect(text).toContain('country in "DE": the context has no such attribute → did not match')
    expect(text).toContain("option 2: all of its conditions hold")
    expect(text).toContain('region in "eu": the context has "eu" → matched')
    await checkWidths("explain")
  })
})

describe("an “any of these” block in a segment", () => {
  const block = () => page.getByRole("group", { name: "Segment condition 1: any of these" })
  const addOption = () => block().getByRole("button", { name: "Add option to segment condition 1" })

  it("is created with its options", async () => {
    await open(page, "#/segments")
    await page.getByRole("button", { name: "New segment" }).click()
    await page.getByLabel("Segment key").fill("dach")
    await page.getByLabel("Segment name").fill("DACH")
    await page.getByRole("button", { name: "Add “any of these” block to the segment" }).click()
    await fillCondition("Segment condition 1, option 1 condition 1", "country", "in", "DE")
    await addOption().click()
    await fillCondition("Segment condition 1, option 2 condition 1", "country", "in", "AT")
    await checkWidths("segment")
    await page.getByRole("button", { name: "Create segment" }).click()
    await page.getByRole("row", { name: /DACH/ }).waitFor()
    const segment = (await api("GET", "/v1/projects/p1/segments/dach")) as { conditions: unknown }
    expect(segment.conditions).toEqual([{ anyOf: [[{ attribute: "country", operator: "in", values: ["DE"] }], [{ attribute: "country", operator: "in", values: ["AT"] }]] }])
  })

  it("stops adding at 20 options of 20 conditions", { timeout: 120_000 }, async () => {
    await page.getByRole("button", { name: "Edit segment dach" }).click()
    for (let i = 2; i < 20; i++) await addOption().click()
    expect(await addOption().isDisabled()).toBe(true)
    expect(await block().getByText("At most 20 options in one block.").count()).toBe(1)
    expect(await block().getByRole("group", { name: /^Option \d+: all of these$/ }).count()).toBe(20)
    const addCondition = block().getByRole("button", { name: "Add condition to segment condition 1, option 1", exact: true })
    for (let i = 1; i < 20; i++) await addCondition.click()
    expect(await addCondition.isDisabled()).toBe(true)
    expect(await block().getByText("At most 20 conditions in one option.").count()).toBe(1)
  })

  it("counts a flag naming the segment inside a block of its rule", async () => {
    await api("POST", "/v1/projects/p1/flags", { key: "shipping", type: "boolean", variations: BOOLEAN })
    await api("PUT", "/v1/projects/p1/flags/shipping/targeting", {
      environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off",
      rules: [{ conditions: [{ anyOf: [[{ operator: "inSegment", values: ["dach"] }], [{ attribute: "plan", operator: "in", values: ["pro"] }]] }], variationKey: "on" }]
    })
    await open(page, "#/flags")
    await open(page, "#/segments")
    await expect.poll(() => page.getByRole("row", { name: /DACH/ }).textContent()).toContain("shipping")
    expect((await evaluate("shipping", { country: "AT" })).reason.kind).toBe("RULE_MATCH")
  })
})
