/**
 * Bounded work per request (issue 10, finding 1; issue 25, item 5), through a real server over
 * HTTP: the hostile requests of issue 10 are refused on write or at the edge, and the worst
 * request the limits allow (the `matches` work metered per evaluation) keeps the event loop busy
 * for less than 50 ms.
 *
 * How the blocking is measured on a shared, noisy machine: `monitorEventLoopDelay` samples the
 * loop every millisecond while one request is sent and answered (client and server share this
 * process's loop, and the client's part is tiny); its maximum is the longest the loop could not
 * run. Other processes can only add delay, never remove it, so the minimum over a few tries is
 * the request's own cost.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Re2 from "../../src/domain/conditions/Re2.js"
import { limit } from "../../src/domain/Limits.js"
import { request, startServer, type TestServer } from "./fixtures.js"

const BUDGET_MS = 50
const TRIES = 5

/** The longest the event loop was blocked while `send` ran (ms), the minimum over `TRIES`. */
const blockedMs = async (send: () => Promise<void>): Promise<number> => {
  let best = Infinity
  for (let i = 0; i < TRIES; i++) {
    const histogram = monitorEventLoopDelay({ resolution: 1 })
    histogram.enable()
    await send()
    // One more sample after the answer, so a block at the very end is recorded too.
    await new Promise((resolve) => setTimeout(resolve, 5))
    histogram.disable()
    best = Math.min(best, histogram.max / 1e6)
  }
  return best
}

/** Strings of "b" and "c": every "b" starts a match attempt that stays alive for many characters. */
const bc = (length: number, seed: number): string => {
  let s = ""
  let x = seed
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    s += (x >> 16) & 1 ? "b" : "c"
  }
  return s
}

/** The widest `[bc]{0,n}b[!?]` within the size limit: n + 1 live threads on every character of a "bc" string. */
const worstAllowedPattern = (): string => {
  let n = 1
  while (Re2.programSize([`[bc]{0,${n + 1}}b[!?]`]) <= limit("regexSizePerCondition")) n++
  return `[bc]{0,${n}}b[!?]`
}

/** The most values allowed, each as long as allowed, each failing only at its last character. */
const nearMisses = (): Array<string> =>
  Array.from({ length: limit("valuesPerCondition") }, (_, i) => "b".repeat(limit("conditionStringLength") - 1) + String.fromCharCode(0x100 + i))

/** The largest array of the longest strings that the context's size limit allows. */
const longestStrings = (): Array<string> => {
  const out: Array<string> = []
  const size = (strings: Array<string>) => JSON.stringify({ key: "user-1", attributes: { v: strings } }).length
  while (out.length < limit("contextArrayLength") && size([...out, bc(limit("contextStringLength"), out.length + 1)]) <= limit("contextSize")) {
    out.push(bc(limit("contextStringLength"), out.length + 1))
  }
  return out
}

let server: TestServer
const manage = (method: string, path: string, body?: unknown) => request(server.url, method, path, { key: server.keys.scoped, body })
const evaluate = (context: unknown) =>
  request(server.url, "POST", "/v1/evaluate", { key: server.keys.client, body: { environment: "production", context } })

const createFlag = async (key: string) => {
  const created = await manage("POST", "/v1/projects/p1/flags", {
    key,
    name: key,
    type: "boolean",
    variations: [
      { key: "on", value: true },
      { key: "off", value: false }
    ]
  })
  expect(created.status).toBe(201)
}
const target = (key: string, conditions: ReadonlyArray<unknown>) =>
  manage("PUT", `/v1/projects/p1/flags/${key}/targeting`, {
    environment: "production",
    enabled: true,
    defaultVariationKey: "off",
    offVariationKey: "off",
    rules: [{ conditions, variationKey: "on" }]
  })

beforeAll(async () => {
  server = await startServer()
  for (const key of ["regex", "contains", "prefix", "suffix", "member"]) await createFlag(key)
})
afterAll(async () => {
  await server.close()
})

describe("the issue's hostile writes are refused (400)", () => {
  it("a pattern over the size limit is refused", async () => {
    const tooBig = worstAllowedPattern().replace(/\{0,(\d+)\}/, (_, n: string) => `{0,${Number(n) + 1}}`)
    const put = await target("regex", [{ attribute: "v", operator: "matches", values: [tooBig] }])
    expect(put.status).toBe(400)
    expect(put.body).toMatchObject({
      error: { code: "invalid_request", details: [{ path: "rules[0].conditions[0].values", message: expect.stringMatching(/RE2 instructions together, at most 1,000/) }] }
    })
  })

  it("contains with 10,000 values is over the values limit", async () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `needle-${i}`)
    const put = await target("contains", [{ attribute: "v", operator: "contains", values }])
    expect(put.status).toBe(400)
    expect(put.body).toMatchObject({
      error: { code: "invalid_request", details: [{ path: "rules[0].conditions[0].values", message: "must have at most 500 values" }] }
    })
  })
})

describe("the issue's hostile contexts are refused at the edge (400), cheaply", () => {
  it("250 strings of 4,095 characters (1 MB)", async () => {
    const huge = { key: "user-1", attributes: { v: Array.from({ length: 250 }, (_, i) => bc(4095, i + 1)) } }
    let reply: Awaited<ReturnType<typeof evaluate>> | undefined
    const blocked = await blockedMs(async () => {
      reply = await evaluate(huge)
    })
    expect(reply!.status).toBe(400)
    expect(reply!.body).toMatchObject({ error: { code: "invalid_request", details: [{ path: "context.attributes.v", message: "must have at most 100 elements" }] } })
    expect(blocked).toBeLessThan(BUDGET_MS)
  })

  it("10,000 strings of 90 characters, and the same through the GET route", async () => {
    const many = { key: "user-1", attributes: { v: Array.from({ length: 10_000 }, (_, i) => bc(90, i + 1)) } }
    const post = await evaluate(many)
    expect(post.status).toBe(400)
    const attributes = encodeURIComponent(JSON.stringify({ v: "x".repeat(limit("contextStringLength") + 1) }))
    const get = await request(server.url, "GET", `/v1/flags/regex/eval?environment=production&key=user-1&attributes=${attributes}`, { key: server.keys.client })
    expect(get.status).toBe(400)
    expect(get.body).toMatchObject({ error: { code: "invalid_request", details: [{ path: "attributes.v", message: "must be at most 1,024 characters" }] } })
  })
})

describe("the worst request the limits allow", () => {
  it(`keeps the event loop busy for less than ${BUDGET_MS} ms`, async () => {
    const pattern = worstAllowedPattern()
    const values = nearMisses()
    for (const [key, conditions] of [
      ["regex", [{ attribute: "v", operator: "matches", values: [pattern] }]],
      ["contains", [{ attribute: "v", operator: "contains", values }]],
      ["prefix", [{ attribute: "v", operator: "startsWith", values }]],
      ["suffix", [{ attribute: "v", operator: "endsWith", values }]],
      ["member", [{ attribute: "v", operator: "in", values }]]
    ] as const) {
      expect((await target(key, conditions)).status).toBe(200)
    }
    // More `matches` work than any request could afford: flags of as many rules as allowed, each
    // with the largest pattern. Only the evaluation's budget (Limits.regexWorkPerEvaluation) bounds it.
    const regexFlags = ["regex1", "regex2", "regex3"]
    for (const key of regexFlags) {
      await createFlag(key)
      const rules = Array.from({ length: limit("rulesPerConfiguration") }, () => ({
        conditions: [{ attribute: "v", operator: "matches", values: [pattern] }],
        variationKey: "on"
      }))
      const put = await manage("PUT", `/v1/projects/p1/flags/${key}/targeting`, {
        environment: "production",
        enabled: true,
        defaultVariationKey: "off",
        offVariationKey: "off",
        rules
      })
      expect(put.status).toBe(200)
    }
    const context = { key: "user-1", attributes: { v: longestStrings() } }
    expect(context.attributes.v.length).toBeGreaterThan(5)
    // The first request compiles the snapshot; its cost is part of what a request may cost.
    let first: Awaited<ReturnType<typeof evaluate>> | undefined
    const blockedFirst = await blockedMs(async () => {
      first = await evaluate(context)
    })
    expect(first!.status).toBe(200)
    const flags = (first!.body as { flags: Record<string, { reason: { kind: string; error?: string } }> }).flags
    for (const key of ["contains", "prefix", "suffix", "member"]) expect(flags[key]!.reason.kind).toBe("FALLTHROUGH")
    // The budget pays for one test of the largest pattern against a 1,024-character string, not
    // for the seven of this context: the `matches` flags answer ERROR, and say why.
    for (const key of ["regex", ...regexFlags]) {
      expect(flags[key]!.reason).toMatchObject({ kind: "ERROR", error: expect.stringMatching(/^REGEX_BUDGET_EXCEEDED: /) })
    }
    expect(blockedFirst).toBeLessThan(BUDGET_MS)

    const attributes = encodeURIComponent(JSON.stringify(context.attributes))
    const blockedGet = await blockedMs(async () => {
      const get = await request(server.url, "GET", `/v1/flags/regex1/eval?environment=production&key=user-1&attributes=${attributes}`, {
        key: server.keys.client
      })
      expect(get.status).toBe(200)
      expect(get.body).toMatchObject({ reason: { kind: "ERROR" } })
    })
    expect(blockedGet).toBeLessThan(BUDGET_MS)
  })
})
