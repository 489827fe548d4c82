/**
 * What counting an evaluation costs in process (run by hand): `npx tsx bench/insights-counter.ts`.
 *
 * The HTTP comparison (`npx tsx bench/http.bench.ts insights`) is the figure that matters, but on a
 * busy machine its noise is larger than the effect. This one isolates the added work: the lean
 * lane's `POST /v1/evaluate` path evaluates 50 W2 flags for a context and then counts the 50
 * results (`EvaluationCounter.countResults`); the single-flag route evaluates one and counts one.
 * Rounds alternate with and without counting in one process (same machine state), and the
 * counter is drained every 10,000 requests, as the flush would. Prints median ns per request of
 * each, and counting's share.
 */
import { EvaluationCounter } from "../src/domain/insights/EvaluationCounter.js"
import * as Evaluate from "../src/domain/evaluation/Evaluate.js"
import type { ConfigSnapshot } from "../src/domain/evaluation/ConfigSnapshot.js"
import { contexts, w2Flag } from "./workloads.js"

const ROUNDS = 15
const REQUESTS = 20_000
const snapshot: ConfigSnapshot = { environment: "production", flags: Array.from({ length: 50 }, (_, i) => w2Flag(`w2-flag-${i}`)), segments: [] }
const compiled = Evaluate.compile(snapshot)
const counter = new EvaluationCounter()
const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

let sink = 0
const all = (count: boolean): number => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < REQUESTS; i++) {
    const results = Evaluate.evaluateAll(compiled, contexts[i % contexts.length]!)
    if (count) counter.countResults("bench", "production", results)
    sink += results["w2-flag-0"] === undefined ? 0 : 1
    if (i % 10_000 === 9_999) counter.drain()
  }
  return Number(process.hrtime.bigint() - start) / REQUESTS
}
const one = (count: boolean): number => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < REQUESTS; i++) {
    const result = Evaluate.evaluate(compiled, "w2-flag-7", contexts[i % contexts.length]!)
    if (count) counter.countResult("bench", "production", result)
    sink += result.variationKey === null ? 0 : 1
    if (i % 10_000 === 9_999) counter.drain()
  }
  return Number(process.hrtime.bigint() - start) / REQUESTS
}

for (const [name, measure] of [["evaluate 50 flags + count 50", all], ["evaluate 1 flag + count 1", one]] as const) {
  measure(true)
  measure(false)
  const on: Array<number> = []
  const off: Array<number> = []
  for (let r = 0; r < ROUNDS; r++) {
    on.push(measure(true))
    off.push(measure(false))
  }
  const [a, b] = [median(on), median(off)]
  console.log(`| ${name} | ${b.toFixed(0)} ns | ${a.toFixed(0)} ns | ${(a - b).toFixed(0)} ns |`)
}
if (sink < 0) console.log(sink)
