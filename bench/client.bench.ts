/**
 * The SDK's overhead on workload W2 (bench/workloads.ts), in one process, rounds interleaved:
 *
 *   Evaluate.evaluate            the bare evaluator on the compiled snapshot (the baseline)
 *   flags.string(...)            the Flagport client (target: within 1.1x of the baseline)
 *   flags.string, onEvaluation   the same with an `onEvaluation` hook that keeps the last event
 *                                (what an exposure hook that queues costs; without a hook the row
 *                                above takes a path that allocates nothing for it)
 *   FlagportProvider alone       the provider's resolve, awaited, without the OpenFeature SDK
 *   OpenFeature, Flagport        OpenFeature's getStringValue over FlagportProvider (awaited per call)
 *   OpenFeature, flagd-core      the same OpenFeature SDK over flagd's in-process evaluator, wrapped
 *                                as flagd's in-process provider wraps it (target: Flagport >= 3x faster),
 *                                and that provider alone
 *   LaunchDarkly variation       LaunchDarkly's public per-call API (async)
 *
 * The peers need `npm --prefix bench/peers install` (bench/peers/README.md); without them only the
 * Flagport rows run. The client gets its configuration from a loopback server in this process,
 * as it would from Flagport, and then does no I/O.
 *
 * Run: npx tsx bench/client.bench.ts   (ROUNDS=15 by default; CPU time per op, median of rounds)
 * NOCOUNT=1: the client with `sendInsights: false`, to see what counting evaluations costs.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createRequire } from "node:module"
import * as os from "node:os"
import { pathToFileURL } from "node:url"
import { OpenFeature, type Provider, type ResolutionDetails } from "@openfeature/server-sdk"
import { createClient, type EvaluationEvent } from "../adapters/client/index.js"
import { FlagportProvider } from "../adapters/openfeature/index.js"
import * as Evaluate from "../src/domain/evaluation/Evaluate.js"
import { runGauge } from "./gauge.js"
import { contexts, w2 } from "./workloads.js"

const ROUNDS = Number(process.env.ROUNDS ?? 15)
const SYNC_OPS = 200_000
const ASYNC_OPS = 50_000
const FLAG = "checkout-variant"

const cpu = () => process.cpuUsage().user + process.cpuUsage().system
const time = (ops: number, run: (ops: number) => void | Promise<void>) => async (): Promise<number> => {
  const start = cpu()
  await run(ops)
  return ((cpu() - start) * 1000) / ops // ns per op
}
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

// The configuration, served as Flagport serves it.
const body = JSON.stringify(w2)
const server = createServer((req, res) => {
  if (req.url?.startsWith("/v1/config")) res.writeHead(200, { "content-type": "application/json", etag: 'W/"w2"' }).end(body)
  else res.writeHead(404).end()
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const compiled = Evaluate.compile(w2)
const flags = await createClient({ url, key: "bench", environment: "production", stream: false, pollIntervalMs: 3_600_000, ...(process.env["NOCOUNT"] ? { sendInsights: false } : {}) })
if (flags.string(FLAG, contexts[0]!, "?") !== Evaluate.evaluate(compiled, FLAG, contexts[0]!).value) throw new Error("the client disagrees with Evaluate")
let lastExposure: EvaluationEvent | undefined
const hooked = await createClient({
  url,
  key: "bench",
  environment: "production",
  stream: false,
  pollIntervalMs: 3_600_000,
  ...(process.env["NOCOUNT"] ? { sendInsights: false } : {}),
  onEvaluation: (event) => void (lastExposure = event)
})
const provider = new FlagportProvider(flags)
await OpenFeature.setProviderAndWait("flagport", provider)
const ofFlagport = OpenFeature.getClient("flagport")
const ofContexts = contexts.map((c) => ({ targetingKey: c.key, ...c.attributes }))

let sink = 0
const rows: Array<{ name: string; run: () => Promise<number> }> = [
  { name: "gauge (bench/gauge.ts)", run: time(SYNC_OPS, (ops) => void (sink ^= runGauge(ops))) },
  {
    name: "Evaluate.evaluate",
    run: time(SYNC_OPS, (ops) => {
      for (let i = 0; i < ops; i++) sink ^= (Evaluate.evaluate(compiled, FLAG, contexts[i % 1000]!).value as string).length
    })
  },
  {
    name: "flags.string (flagport/client)",
    run: time(SYNC_OPS, (ops) => {
      for (let i = 0; i < ops; i++) sink ^= flags.string(FLAG, contexts[i % 1000]!, "?").length
    })
  },
  {
    name: "flags.string with onEvaluation",
    run: time(SYNC_OPS, (ops) => {
      for (let i = 0; i < ops; i++) sink ^= hooked.string(FLAG, contexts[i % 1000]!, "?").length
      if (lastExposure?.flagKey !== FLAG) throw new Error("the hook saw nothing")
    })
  },
  {
    name: "FlagportProvider alone (awaited, no SDK)",
    run: time(ASYNC_OPS, async (ops) => {
      for (let i = 0; i < ops; i++) sink ^= (await provider.resolveStringEvaluation(FLAG, "?", ofContexts[i % 1000]!)).value.length
    })
  },
  {
    name: "OpenFeature + FlagportProvider",
    run: time(ASYNC_OPS, async (ops) => {
      for (let i = 0; i < ops; i++) sink ^= (await ofFlagport.getStringValue(FLAG, "?", ofContexts[i % 1000]!)).length
    })
  }
]

// Peers, when installed.
interface Peer {
  readonly name: string
  readonly version: string
  readonly sync: boolean
  readonly toNative: (c: unknown) => unknown
  readonly evaluateNativeAsync?: (n: unknown) => Promise<string>
}
let peersNote = "peers not installed (npm --prefix bench/peers install)"
try {
  const peersUrl = new URL("./peers/w2.mjs", import.meta.url).href
  const { makePeers, flagdW2Config } = (await import(peersUrl)) as {
    makePeers: () => Promise<ReadonlyArray<Peer>>
    flagdW2Config: () => unknown
  }
  const require = createRequire(new URL("./peers/package.json", import.meta.url))
  const { FlagdCore } = (await import(pathToFileURL(require.resolve("@openfeature/flagd-core")).href)) as {
    FlagdCore: new (a: undefined, logger: unknown) => {
      setConfigurations(json: string): void
      resolveStringEvaluation(key: string, def: string, ctx: unknown, logger: unknown): ResolutionDetails<string>
    }
  }
  const noop = () => {}
  const logger = { error: noop, warn: noop, info: noop, debug: noop }
  const core = new FlagdCore(undefined, logger)
  core.setConfigurations(JSON.stringify(flagdW2Config()))
  // What @openfeature/flagd-provider's in-process resolver does per call: FlagdCore, in a Promise.
  const flagdProvider: Provider = {
    metadata: { name: "flagd-core (in-process provider shape)" },
    runsOn: "server",
    resolveBooleanEvaluation: () => Promise.reject(new Error("unused")),
    resolveNumberEvaluation: () => Promise.reject(new Error("unused")),
    resolveObjectEvaluation: () => Promise.reject(new Error("unused")),
    resolveStringEvaluation: (key, def, ctx) => Promise.resolve(core.resolveStringEvaluation(key, def, ctx, logger))
  }
  await OpenFeature.setProviderAndWait("flagd", flagdProvider)
  rows.push({
    name: "flagd-core provider alone (awaited, no SDK)",
    run: time(ASYNC_OPS, async (ops) => {
      for (let i = 0; i < ops; i++) sink ^= (await flagdProvider.resolveStringEvaluation(FLAG, "?", ofContexts[i % 1000]!, undefined as never)).value.length
    })
  })
  const ofFlagd = OpenFeature.getClient("flagd")
  rows.push({
    name: "OpenFeature + flagd-core",
    run: time(ASYNC_OPS, async (ops) => {
      for (let i = 0; i < ops; i++) sink ^= (await ofFlagd.getStringValue(FLAG, "?", ofContexts[i % 1000]!)).length
    })
  })
  const ld = (await makePeers()).find((p) => p.name.includes("launchdarkly"))
  if (ld?.evaluateNativeAsync !== undefined) {
    const natives = contexts.map((c) => ld.toNative(c))
    rows.push({
      name: `LaunchDarkly variation (${ld.version})`,
      run: time(ASYNC_OPS, async (ops) => {
        for (let i = 0; i < ops; i++) sink ^= (await ld.evaluateNativeAsync!(natives[i % 1000]!)).length
      })
    })
  }
  peersNote = "peers from bench/peers"
} catch (error) {
  peersNote = `peers unavailable: ${error instanceof Error ? error.message : String(error)}`
}

// Warm-up, then interleaved rounds.
for (const row of rows) for (let i = 0; i < 3; i++) await row.run()
const results = rows.map(() => [] as Array<number>)
for (let round = 0; round < ROUNDS; round++) for (const [i, row] of rows.entries()) results[i]!.push(await row.run())

console.log(`${new Date().toISOString()}  node ${process.version}  ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}  ${ROUNDS} rounds  ${peersNote}`)
const base = median(results[1]!)
const flagportOf = median(results[4]!)
for (const [i, row] of rows.entries()) {
  const ns = median(results[i]!)
  const extra = i === 0 ? "" : row.name.startsWith("OpenFeature + flagd") ? `  ${(ns / flagportOf).toFixed(2)}x the Flagport OpenFeature path` : ""
  console.log(`${row.name.padEnd(42)} ${ns.toFixed(1).padStart(9)} ns/op  ${i === 0 ? "" : `${(ns / base).toFixed(2)}x Evaluate`}${extra}`)
}
console.log(`(sink ${sink})`)
await flags.close()
await hooked.close()
await OpenFeature.close()
server.close()
