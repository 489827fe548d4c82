/**
 * What a lookup in a segment's key list costs, in parts (run by hand, not a test): W2's 1,000
 * context keys (12 to 15 characters) read 2,000,000 times, CPU time per lookup, median of 9 rounds
 * (docs/operations/benchmarks.md, "W2 with a 1,000,000-key segment"):
 *
 *   npx tsx bench/key-set-lookup.ts
 *
 * read: the key's characters summed (no hash); hash: the one-pass 64-bit hash (KeyHash.ts);
 * hasSmall / hasBig: `KeySet.has` against a 100-key table and against W2S's 1,000,000-key one.
 */
import { KeySet } from "../src/domain/evaluation/KeySet.js"
import { hashKeyInto, seedsOf } from "../src/domain/evaluation/KeyHash.js"
import { contexts, w2sIncluded } from "./workloads.js"
const keys = contexts.map((c) => c.key)
const big = KeySet.fromKeys("beta-testers/included", w2sIncluded())
const small = KeySet.fromKeys("beta-testers/included", keys.filter((_, i) => i % 10 === 0))
const seeds = seedsOf("x"); const out = new Int32Array(2)
let sink = 0
const N = 2_000_000
const cpu = (f: () => void) => { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); return ((c.user + c.system) * 1000) / N }
const runs: Record<string, Array<number>> = { read: [], hash: [], hasSmall: [], hasBig: [] }
for (let r = 0; r < 9; r++) {
  runs.read!.push(cpu(() => { for (let i = 0; i < N; i++) { const k = keys[i % 1000]!; let s = 0; for (let j = 0; j < k.length; j++) s += k.charCodeAt(j); sink ^= s } }))
  runs.hash!.push(cpu(() => { for (let i = 0; i < N; i++) { hashKeyInto(seeds.high, seeds.low, keys[i % 1000]!, out, 0); sink ^= out[0]! } }))
  runs.hasSmall!.push(cpu(() => { for (let i = 0; i < N; i++) if (small.has(keys[i % 1000]!)) sink++ }))
  runs.hasBig!.push(cpu(() => { for (let i = 0; i < N; i++) if (big.has(keys[i % 1000]!)) sink++ }))
}
const med = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1)
console.log(Object.entries(runs).map(([k, v]) => `${k} ${med(v)} ns (${Math.min(...v).toFixed(1)}-${Math.max(...v).toFixed(1)})`).join("; "), "key lengths", Math.min(...keys.map((k) => k.length)), "-", Math.max(...keys.map((k) => k.length)), sink > 0 ? "" : " ")
