/**
 * A YAML apply is bounded as a JSON one is, through a real server: block-style nesting (no bracket
 * for the JSON depth guard to count) deeper than 64 levels is a 400 at the path where it passes
 * the bound, and nesting deep enough to overflow the parser's stack is a 400 too, never a 500; a
 * file near the 1 MiB cap is parsed off the event loop, so it does not stall the other requests.
 *
 * The blocking is measured as in test/http/BoundedWork.test.ts: `monitorEventLoopDelay` samples the
 * loop while the request is sent and answered (client and server share this process); other
 * processes only add delay, so the minimum over a few tries is the request's own cost. It is set
 * beside the same parse on this thread, measured in the same run.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { parseFile } from "../../src/domain/ascode/FileText.js"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer, type TestServer } from "../http/fixtures.js"

const TRIES = 3

/** The longest the event loop was blocked while `send` ran (ms), the minimum over `TRIES`. */
const blockedMs = async (send: () => Promise<void>): Promise<number> => {
  let best = Infinity
  for (let i = 0; i < TRIES; i++) {
    const histogram = monitorEventLoopDelay({ resolution: 1 })
    histogram.enable()
    await send()
    await new Promise((resolve) => setTimeout(resolve, 5))
    histogram.disable()
    best = Math.min(best, histogram.max / 1e6)
  }
  return best
}

/** `levels` mappings nested in block style under `flags[0].metadata` (one key `a` each). */
const blockNested = (levels: number): string => {
  let text = "project:\n  id: deep\nflags:\n  - key: deep\n    metadata:\n"
  for (let level = 0; level < levels; level++) text += `${" ".repeat(6 + level)}a:\n`
  return `${text}${" ".repeat(6 + levels)}b: 1\n`
}

/** Just under 1 MiB of flags, then a syntax error on the last line: the whole text is parsed, nothing planned. */
const largeBadFile = (): string => {
  let text = "project:\n  id: large\nflags:\n"
  for (let i = 0; text.length < 1024 * 1024 - 400; i++) {
    text += `  - key: flag-${i}\n    name: Flag ${i}\n    type: boolean\n    variations:\n      - { key: "on", value: true }\n      - { key: "off", value: false }\n`
  }
  return `${text}  - key: [unclosed\n`
}

describe("YAML apply bounds", () => {
  let t: TestServer
  const applyYaml = (project: string, text: string) =>
    request(t.url, "POST", `/v1/projects/${project}/apply?dryRun=true`, { key: t.keys.global, body: text, headers: { "content-type": "application/yaml" } })

  beforeAll(async () => {
    t = await startServer(freshStorage("sqlite"))
  }, 60_000)
  afterAll(async () => {
    await t?.close()
  })

  it("block-style nesting past 64 levels is a 400 at its path", async () => {
    const refused = await applyYaml("deep", blockNested(200))
    expect(refused.status, refused.text).toBe(400)
    const details = (refused.body as { error: { details: ReadonlyArray<{ path: string; message: string }> } }).error.details
    expect(details).toEqual([{ path: `flags[0].metadata${".a".repeat(61)}`, message: "arrays and objects nest deeper than 64 levels" }])
    expect((await applyYaml("deep", blockNested(40))).status).not.toBe(500)
  })

  it("nesting that overflows the parser's stack is a 400 with its line, not a 500", async () => {
    for (const levels of [400, 800, 1000]) {
      const refused = await applyYaml("deep", blockNested(levels))
      expect(refused.status, refused.text).toBe(400)
      expect(refused.text).toContain("nest deeper than 64 levels")
    }
  })

  it("a file near 1 MiB is parsed off the event loop", async () => {
    const text = largeBadFile()
    const blocked = await blockedMs(async () => {
      const refused = await applyYaml("large", text)
      expect(refused.status, refused.text).toBe(400)
      expect(refused.text).toContain("line ")
    })
    // Measured after the requests: a loop held for seconds before them could let the server drop
    // the client's idle keep-alive connection just as it is reused.
    const started = performance.now()
    expect(parseFile(text)._tag).toBe("Left")
    const inlineMs = performance.now() - started
    // On this thread the parse holds the loop for its whole duration (about 2 s here); on the worker, a small part of it.
    expect(inlineMs).toBeGreaterThan(300)
    expect(blocked).toBeLessThan(inlineMs / 5)
  }, 60_000)
})
