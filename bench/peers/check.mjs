/**
 * Self-check for the W2 peers (run from the repo root after `npm run build` and
 * `npm --prefix bench/peers install`):
 *
 *   npx tsx bench/peers/check.mjs
 *
 * 1. Takes the W2 flag and its 1,000 contexts from bench/workloads.ts (as the evaluator bench does);
 *    Flagport itself is imported from the build (dist/), as a user gets it.
 * 2. For every context, each peer must agree with Flagport on rules 1 and 2: with rule 3 replaced
 *    by a sentinel value, a peer must return Flagport's value where Flagport matched rule 1 or 2,
 *    and the sentinel where Flagport reached rule 3. (Rollout buckets differ by design: each SDK
 *    hashes differently.) LaunchDarkly's public async path and its private sync path must agree.
 * 3. Over the contexts that reach rule 3, each peer's share of A must be within 45-55%.
 * 4. Quick timing: ns per evaluation, median of ROUNDS rounds of 200k evaluations cycling the
 *    contexts, rounds interleaved across evaluators so the ratios share the machine's state; with
 *    them the hand-written ceiling (bench/w2-ceiling.ts, a plain function for W2 alone, checked to
 *    serve what Flagport serves), and per round Flagport / ceiling and flagd-core / Flagport.
 *    Flagport and the ceiling each run in a loop of their own (a shared loop calling each through
 *    one site would add the same megamorphic call to both, and flatter the ratio).
 *
 * Exits non-zero when a check fails.
 */
import * as os from "node:os"
import { Evaluate } from "../../dist/index.js"
import { contexts, w2 } from "../workloads.js"
import { makePeers } from "./w2.mjs"
import { checkCeiling, w2Ceiling } from "../w2-ceiling.js"

const ROUNDS = Number(process.env.ROUNDS ?? 5)
const OPS = 200_000
const FLAG_KEY = "checkout-variant"

// The W2 flag and contexts are bench/workloads.ts's (this file runs under tsx, which loads it).
const compiled = Evaluate.compile(w2)

// --- Correctness ---------------------------------------------------------------------------------
const SENTINEL = "r"
const failures = []
const fail = (msg) => {
  if (failures.length < 20) console.log(`FAIL ${msg}`)
  failures.push(msg)
}

const flagport = contexts.map((ctx) => Evaluate.evaluate(compiled, FLAG_KEY, ctx))
const reachesRule3 = flagport.map((r) => r.reason.kind === "RULE_MATCH" && r.reason.ruleId === "half")
const mix = new Map()
for (const r of flagport) {
  const k = `${r.reason.kind}:${r.reason.ruleId ?? "-"}:${r.value}`
  mix.set(k, (mix.get(k) ?? 0) + 1)
}
const rule3Count = reachesRule3.filter(Boolean).length
const flagportA = flagport.filter((r, i) => reachesRule3[i] && r.value === "a").length

const peers = await makePeers()
const probes = await makePeers({ rule3Sentinel: SENTINEL })
const evalSyncOrAsync = async (p, ctx) => (p.sync ? p.evaluate(ctx) : await p.evaluateAsync(ctx))

console.log(
  `machine: ${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? "?"}, node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`
)
console.log(`peers: ${peers.map((p) => `${p.name}@${p.version}${p.evaluatorVersion ? ` (evaluator ${p.evaluatorVersion})` : ""} ${p.sync ? "sync" : "async"}`).join(", ")}`)
console.log(`Flagport W2 path mix: ${[...mix].map(([k, n]) => `${k}=${n}`).join(", ")}`)
console.log(`Flagport rule-3 split: A ${flagportA}/${rule3Count} = ${((100 * flagportA) / rule3Count).toFixed(1)}%`)

for (let pi = 0; pi < peers.length; pi++) {
  const peer = peers[pi]
  const probe = probes[pi]
  let agreeRules = 0
  let rolloutA = 0
  let rolloutOther = 0
  for (let i = 0; i < contexts.length; i++) {
    const ctx = contexts[i]
    const expected = reachesRule3[i] ? SENTINEL : flagport[i].value
    const got = await evalSyncOrAsync(probe, ctx)
    if (got === expected) agreeRules++
    else fail(`${peer.name}: context ${i} ${JSON.stringify(ctx)}: rule probe gave ${got}, Flagport ${expected} (${flagport[i].reason.ruleId ?? flagport[i].reason.kind})`)

    const value = await evalSyncOrAsync(peer, ctx)
    if (!reachesRule3[i] && value !== flagport[i].value) fail(`${peer.name}: context ${i}: ${value}, Flagport ${flagport[i].value}`)
    if (reachesRule3[i]) {
      if (value === "a") rolloutA++
      else if (value === "c") rolloutOther++
      else fail(`${peer.name}: context ${i} reaches rule 3 but got ${value} (expected a or c)`)
    }
    // Every entry point of the peer gives the same answer.
    const native = peer.toNative(ctx)
    const viaNative = peer.sync ? peer.evaluateNative(native) : await peer.evaluateNativeAsync(native)
    if (viaNative !== value) fail(`${peer.name}: context ${i}: native-context path ${viaNative} != ${value}`)
    if (peer.evaluateInternalSync !== undefined && peer.evaluateInternalSync(ctx) !== value) {
      fail(`${peer.name}: context ${i}: private sync path ${peer.evaluateInternalSync(ctx)} != public ${value}`)
    }
  }
  const share = (100 * rolloutA) / (rolloutA + rolloutOther)
  const splitOk = share >= 45 && share <= 55
  if (!splitOk) fail(`${peer.name}: rule-3 split ${share.toFixed(1)}% A is outside 45-55%`)
  console.log(
    `${peer.name}: rules 1-2 agree with Flagport on ${agreeRules}/${contexts.length} contexts; ` +
      `rule-3 split A ${rolloutA}/${rolloutA + rolloutOther} = ${share.toFixed(1)}% ${splitOk ? "(ok)" : "(OUT OF RANGE)"}`
  )
}
for (const p of probes) await p.close()

// --- Timing ------------------------------------------------------------------------------------------
let sink = 0
const syncBody = (fn, arg) => () => {
  for (let i = 0; i < OPS; i++) if (fn(arg[i % 1000]) === undefined) sink++
}
const asyncBody = (fn, arg) => async () => {
  for (let i = 0; i < OPS; i++) if ((await fn(arg[i % 1000])) === undefined) sink++
}

checkCeiling(contexts, (ctx) => Evaluate.evaluate(compiled, FLAG_KEY, ctx))
const cases = [
  {
    name: "flagport Evaluate.evaluate (sync)",
    run: () => {
      for (let i = 0; i < OPS; i++) if (Evaluate.evaluate(compiled, FLAG_KEY, contexts[i % 1000]).value === undefined) sink++
    }
  },
  {
    name: "hand-written W2 ceiling (bench/w2-ceiling.ts)",
    run: () => {
      for (let i = 0; i < OPS; i++) if (w2Ceiling(contexts[i % 1000]).value === undefined) sink++
    }
  }
]
for (const p of peers) {
  const native = contexts.map((c) => p.toNative(c))
  if (p.sync) {
    cases.push({ name: `${p.name} evaluate (sync, maps context)`, run: syncBody(p.evaluate, contexts) })
    cases.push({ name: `${p.name} evaluateNative (sync, pre-mapped)`, run: syncBody(p.evaluateNative, native) })
  } else {
    cases.push({ name: `${p.name} evaluateAsync (public, awaited)`, run: asyncBody(p.evaluateAsync, contexts) })
    cases.push({ name: `${p.name} evaluateNativeAsync (pre-mapped)`, run: asyncBody(p.evaluateNativeAsync, native) })
  }
  if (p.evaluateInternalSync !== undefined) {
    cases.push({ name: `${p.name} private evaluator (sync)`, run: syncBody(p.evaluateInternalSync, contexts) })
    cases.push({ name: `${p.name} private evaluator (pre-mapped)`, run: syncBody(p.evaluateInternalNative, native) })
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const results = cases.map(() => ({ wall: [], cpu: [] }))
for (const c of cases) await c.run() // warm-up (JIT)
for (let r = 0; r < ROUNDS; r++) {
  for (let ci = 0; ci < cases.length; ci++) {
    const cpu0 = process.cpuUsage()
    const t0 = process.hrtime.bigint()
    await cases[ci].run()
    const wall = Number(process.hrtime.bigint() - t0)
    const cpu = process.cpuUsage(cpu0)
    results[ci].wall.push(wall / OPS)
    results[ci].cpu.push(((cpu.user + cpu.system) * 1000) / OPS)
  }
}
for (const p of peers) await p.close()

const fmt = (ns) => (ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`)
const base = median(results[0].cpu)
console.log(`timing: median of ${ROUNDS} interleaved rounds x ${OPS} evaluations, cycling 1,000 contexts (ratio = cpu / Flagport cpu)`)
cases.forEach((c, i) => {
  const wall = median(results[i].wall)
  const cpu = median(results[i].cpu)
  console.log(`  ${c.name.padEnd(62)} wall ${fmt(wall).padStart(9)}  cpu ${fmt(cpu).padStart(9)}  x${(cpu / base).toFixed(1)}`)
})
const perRound = (a, b) => {
  const r = results[a].cpu.map((x, i) => x / results[b].cpu[i])
  return `median ${median(r).toFixed(2)} (${Math.min(...r).toFixed(2)} to ${Math.max(...r).toFixed(2)})`
}
console.log(`Flagport / hand-written ceiling, CPU per round: ${perRound(0, 1)} (target <= 1.5)`)
const flagd = cases.findIndex((c) => c.name.includes("flagd") && c.name.includes("maps context"))
if (flagd >= 0) console.log(`${cases[flagd].name} / Flagport, CPU per round: ${perRound(flagd, 0)}`)
if (sink < 0) console.log(sink)

if (failures.length > 0) {
  console.log(`CHECK FAILED: ${failures.length} problem(s)`)
  process.exitCode = 1
} else {
  console.log("CHECK OK")
}
