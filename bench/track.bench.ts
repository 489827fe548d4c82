/**
 * What experiments cost the SDK's calling path, in one process, rounds interleaved (CPU time per
 * call, median of rounds):
 *
 *   flags.track(event, unit, value)   a metric event queued (target: at most 200 ns)
 *   Evaluate.evaluate                 the bare evaluator on W2 (bench/workloads.ts), the baseline
 *   flags.string, not measured        the client on W2 with no running experiment
 *   flags.string, measured            the same with W2's rollout rule `half` measured by a running
 *                                     experiment: each evaluation the rule serves is an exposure
 *                                     (its unit read, deduplicated, queued once per window)
 *
 * The client gets its configuration from a loopback server in this process, which also takes
 * `POST /v1/track` and `/v1/exposures` (202): between rounds, outside the timing, the client
 * flushes, so every round pushes into a drained queue (nothing dropped) and starts a new dedupe
 * window, as a real flush interval does.
 *
 * Run: flock /tmp/flagport-bench.lock nice -n -10 npx tsx bench/track.bench.ts   (ROUNDS=15 by default)
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as os from "node:os"
import { createClient } from "../adapters/client/index.js"
import * as Evaluate from "../src/domain/evaluation/Evaluate.js"
import { contexts, w2 } from "./workloads.js"

const ROUNDS = Number(process.env.ROUNDS ?? 15)
const OPS = 200_000
const FLAG = "checkout-variant"

const cpu = () => process.cpuUsage().user + process.cpuUsage().system
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

let ingested = 0
const server = createServer((req, res) => {
  if (req.url?.startsWith("/v1/config?")) {
    const measured = req.url.includes("projectId=measured")
    const body = JSON.stringify(measured ? { ...w2, experiments: [{ flagKey: FLAG, ruleId: "half" }] } : w2)
    res.writeHead(200, { "content-type": "application/json", etag: measured ? 'W/"m"' : 'W/"w2"' }).end(body)
    return
  }
  if (req.method === "POST" && (req.url === "/v1/track" || req.url === "/v1/exposures")) {
    let text = ""
    req.on("data", (chunk: Buffer) => (text += chunk.toString()))
    req.on("end", () => {
      const body = JSON.parse(text) as { events?: Array<unknown>; exposures?: Array<unknown> }
      ingested += (body.events ?? body.exposures ?? []).length
      res.writeHead(202, { "content-type": "application/json" }).end('{"accepted":0,"dropped":0,"duplicate":false}')
    })
    return
  }
  res.writeHead(404).end()
})
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

const options = { url, key: "bench", environment: "production", stream: false, pollIntervalMs: 3_600_000, sendInsights: false, flushIntervalMs: 3_600_000, maxQueuedItems: OPS }
const plain = await createClient(options)
const measured = await createClient({ ...options, projectId: "measured" })
const compiled = Evaluate.compile(w2)
const units = contexts.map((c) => c.key)

let sink = 0
const rows: Array<{ readonly name: string; readonly run: () => void; readonly after?: () => Promise<unknown> }> = [
  {
    name: "flags.track(event, unit, value)",
    run: () => {
      for (let i = 0; i < OPS; i++) plain.track("purchase", units[i % 1000]!, i)
    },
    after: () => plain.flush()
  },
  {
    name: "Evaluate.evaluate (W2)",
    run: () => {
      for (let i = 0; i < OPS; i++) sink += Evaluate.evaluate(compiled, FLAG, contexts[i % 1000]!).value === "A" ? 1 : 0
    }
  },
  {
    name: "flags.string (W2), not measured",
    run: () => {
      for (let i = 0; i < OPS; i++) sink += plain.string(FLAG, contexts[i % 1000]!, "?").length
    }
  },
  {
    name: "flags.string (W2), rule measured",
    run: () => {
      for (let i = 0; i < OPS; i++) sink += measured.string(FLAG, contexts[i % 1000]!, "?").length
    },
    after: () => measured.flush()
  }
]

const results = new Map<string, Array<number>>(rows.map((row) => [row.name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    const start = cpu()
    row.run()
    results.get(row.name)!.push(((cpu() - start) * 1000) / OPS)
    await row.after?.()
  }
}

const dropped = (c: typeof plain) => Object.values(c.delivery.events.dropped).reduce((a, b) => a + b, 0) + Object.values(c.delivery.exposures.dropped).reduce((a, b) => a + b, 0)
console.log(`${new Date().toISOString()}  node ${process.version}  ${os.cpus()[0]?.model} x${os.cpus().length}  load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`)
console.log(`ROUNDS=${ROUNDS}, ${OPS.toLocaleString("en-US")} calls a round; items the loopback server took: ${ingested.toLocaleString("en-US")}; dropped: ${dropped(plain) + dropped(measured)}`)
const base = median(results.get("Evaluate.evaluate (W2)")!)
for (const [name, xs] of results) {
  console.log(`${name.padEnd(36)} ${median(xs).toFixed(1).padStart(7)} ns/call  (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})${name.startsWith("flags.string") ? `  ${(median(xs) / base).toFixed(2)}x evaluate` : ""}`)
}
if (sink === 42) console.log("")
await plain.close()
await measured.close()
server.close()
