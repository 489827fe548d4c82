/**
 * The `matches` budget (issue 25, item 5), run by hand:
 *
 *   npx tsx bench/regex-budget.ts [FLAGS=20] [distinct]
 *
 * Through a real server (the standalone composition, memory storage, 127.0.0.1), the worst
 * configuration for `matches` the limits allow: FLAGS flags of `rulesPerConfiguration` rules, each
 * rule one condition with the largest pattern (`[bc]{0,n}b[!?]`, program size at the limit: every
 * "b" starts a thread that lives for n characters, and there is no literal for re2js to look for
 * first), and the worst context a client key can send: the most 1,024-character "bc" strings the
 * context's size allows, in the attribute every condition reads. Printed:
 *
 * - the event loop's longest stall while one request is sent and answered
 *   (`monitorEventLoopDelay`, 1 ms resolution; client and server share this process), for the first
 *   request (which compiles the snapshot) and over ROUNDS more, for `POST /v1/evaluate` and for
 *   `GET /v1/flags/{key}/eval`;
 * - what the same request would cost without the budget: one test of the pattern against one
 *   string, timed in process, times the tests the configuration asks for.
 *
 * With `distinct`, every rule's pattern differs (`[bc]{0,n-k}b[!?]`), so nothing is shared when the
 * snapshot is compiled: the first request's figure is then the compile of 100 x FLAGS programs.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"
import * as Re2 from "../src/domain/conditions/Re2.js"
import * as RegexBudget from "../src/domain/conditions/RegexBudget.js"
import { limit } from "../src/domain/Limits.js"
import { request, startServer } from "../test/http/fixtures.js"

const FLAGS = Number(process.argv[2] ?? 20)
const DISTINCT = process.argv[3] === "distinct"
const ROUNDS = 15

const bc = (length: number, seed: number): string => {
  let s = ""
  let x = seed
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    s += (x >> 16) & 1 ? "b" : "c"
  }
  return s
}

const widest = (): string => {
  let n = 1
  while (Re2.programSize([`[bc]{0,${n + 1}}b[!?]`]) <= limit("regexSizePerCondition")) n++
  return `[bc]{0,${n}}b[!?]`
}

const longestStrings = (): Array<string> => {
  const out: Array<string> = []
  const size = (strings: Array<string>) => JSON.stringify({ key: "user-1", attributes: { v: strings } }).length
  while (out.length < limit("contextArrayLength") && size([...out, bc(limit("contextStringLength"), out.length + 1)]) <= limit("contextSize")) {
    out.push(bc(limit("contextStringLength"), out.length + 1))
  }
  return out
}

/** The longest stall of the event loop while `send` runs (ms). */
const stall = async (send: () => Promise<void>): Promise<number> => {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  await send()
  await new Promise((resolve) => setTimeout(resolve, 5))
  histogram.disable()
  return histogram.max / 1e6
}

const summary = (xs: ReadonlyArray<number>): string => {
  const sorted = [...xs].sort((a, b) => a - b)
  return `min ${sorted[0]!.toFixed(1)} ms, median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`
}

const main = async () => {
  const server = await startServer()
  try {
    const pattern = widest()
    const strings = longestStrings()
    const manage = (method: string, path: string, body: unknown) => request(server.url, method, path, { key: server.keys.scoped, body })
    for (let f = 0; f < FLAGS; f++) {
      const key = `regex${f}`
      const created = await manage("POST", "/v1/projects/p1/flags", {
        key,
        name: key,
        type: "boolean",
        variations: [{ key: "on", value: true }, { key: "off", value: false }]
      })
      if (created.status !== 201) throw new Error(created.text)
      const rules = Array.from({ length: limit("rulesPerConfiguration") }, (_, r) => ({
        conditions: [{ attribute: "v", operator: "matches", values: [DISTINCT ? pattern.replace(/\{0,(\d+)\}/, (_m, n: string) => `{0,${Number(n) - f * 20 - (r % 20)}}`) : pattern] }],
        variationKey: "on"
      }))
      const put = await manage("PUT", `/v1/projects/p1/flags/${key}/targeting`, { environment: "production", enabled: true, defaultVariationKey: "off", offVariationKey: "off", rules })
      if (put.status !== 200) throw new Error(put.text)
    }
    const context = { key: "user-1", attributes: { v: strings } }
    const evaluate = async () => {
      const reply = await request(server.url, "POST", "/v1/evaluate", { key: server.keys.client, body: { environment: "production", context } })
      if (reply.status !== 200) throw new Error(reply.text)
    }
    const attributes = encodeURIComponent(JSON.stringify(context.attributes))
    const single = async () => {
      const reply = await request(server.url, "GET", `/v1/flags/regex0/eval?environment=production&key=user-1&attributes=${attributes}`, { key: server.keys.client })
      if (reply.status !== 200) throw new Error(reply.text)
    }

    const first = await stall(evaluate)
    const bulk: Array<number> = []
    const one: Array<number> = []
    for (let r = 0; r < ROUNDS; r++) {
      bulk.push(await stall(evaluate))
      one.push(await stall(single))
    }

    // Without the budget: every rule of every flag tests every string.
    const tester = Re2.compile([pattern])
    const times: Array<number> = []
    for (let r = 0; r < 5; r++) {
      RegexBudget.reset() // the tester charges the evaluation's meter, which a bare call must start
      const start = process.hrtime.bigint()
      tester(strings[0]!)
      times.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
    const perTest = Math.min(...times)
    const tests = FLAGS * limit("rulesPerConfiguration") * strings.length

    console.log(`pattern ${pattern} (program size ${Re2.programSize([pattern])}), ${strings.length} strings of ${limit("contextStringLength")} characters`)
    console.log(`configuration: ${FLAGS} flags x ${limit("rulesPerConfiguration")} rules, one matches condition each${DISTINCT ? ", patterns distinct per flag" : ", one pattern"}`)
    console.log(`POST /v1/evaluate, first request (compiles the snapshot): longest stall ${first.toFixed(1)} ms`)
    console.log(`POST /v1/evaluate, ${ROUNDS} requests: longest stall ${summary(bulk)}`)
    console.log(`GET /v1/flags/regex0/eval, ${ROUNDS} requests: longest stall ${summary(one)}`)
    console.log(`without the budget: ${tests.toLocaleString("en-US")} tests x ${perTest.toFixed(1)} ms = about ${((tests * perTest) / 1000).toFixed(0)} s per request`)
  } finally {
    await server.close()
  }
}

await main()
