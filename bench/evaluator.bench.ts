/**
 * Evaluator benchmark (run by hand): npx tsx bench/evaluator.bench.ts
 *
 * W1: one boolean flag, enabled, no rules.
 * W2: a string flag A/B/C with three ordered rules: (1) country in [US, CA, MX] AND plan in
 *     [pro, enterprise] -> A; (2) email endsWith "@example.com" -> B; (3) 50/50 rollout by key
 *     between A and C; fallthrough C. 1,000 precomputed contexts cycled.
 * W2S: W2 with a first rule naming a segment of 1,000,000 included keys (a tenth of the contexts
 *      listed), side by side with W2 in every round.
 * W3: evaluateAll over 200 W2-shaped flags (each its own key) for one context.
 * W2 hand-written: the ceiling, a plain function written for W2 alone (bench/w2-ceiling.ts), timed
 *      beside W2 in every round; its line gives W2 / ceiling per round.
 *
 * Method: after a warm-up, ROUNDS rounds; each round times the machine gauge (bench/gauge.ts, plain
 * JavaScript with no Flagport code) and then each workload, so all of them share the machine's
 * state round by round. Per workload it prints the median over all rounds (wall clock and process
 * CPU time), and the median CPU time over the rounds the gauge says ran at full speed and over the
 * slowed ones (other tenants slow this shared guest by about 1.5 to 2 times for long stretches;
 * see bench/LOG.md, Evaluator), and the median ratio of the workload's time to the gauge's in
 * the same round, which stays put when the machine's speed changes.
 */
import * as os from "node:os"
import * as Evaluate from "../src/domain/evaluation/Evaluate.js"
import { runGauge } from "./gauge.js"
import { KeySet } from "../src/domain/evaluation/KeySet.js"
import { checkCeiling, w2Ceiling } from "./w2-ceiling.js"
import { contexts, w1, w2, w2s, w2sIncluded, w3 } from "./workloads.js"



let sink = 0
const ROUNDS = 21
/** A round whose gauge time is within this factor of the run's fastest gauge round ran at full speed. */
const FULL_SPEED = 1.25

const median = (xs: ReadonlyArray<number>): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[sorted.length >> 1]!
}

interface Workload {
  readonly name: string
  readonly unit: string
  readonly target: string
  readonly ops: number
  readonly run: (ops: number) => void
  readonly wall: Array<number>
  readonly cpu: Array<number>
}

/** Times `run(ops)`: [wall ns, process CPU ns (user + system)] per operation. */
const time = (ops: number, run: (ops: number) => void): [number, number] => {
  const cpu0 = process.cpuUsage()
  const start = process.hrtime.bigint()
  run(ops)
  const wall = Number(process.hrtime.bigint() - start)
  const cpu = process.cpuUsage(cpu0)
  return [wall / ops, ((cpu.user + cpu.system) * 1000) / ops]
}

const c1 = Evaluate.compile(w1)
const c2 = Evaluate.compile(w2)
const c3 = Evaluate.compile(w3)
const betaTesters = KeySet.fromKeys("beta-testers/included", w2sIncluded())
const c2s = Evaluate.compile(w2s, (segment, list) => (segment === "beta-testers" && list === "included" ? betaTesters : undefined))
if (Evaluate.evaluate(c2s, "checkout-variant", contexts[0]!).reason.ruleId !== "beta") throw new Error("W2S must serve its segment rule to a listed key")

// Sanity: the workloads really exercise every path of W2, and W3 answers for all 200 flags.
const reasons = new Map<string, number>()
for (const ctx of contexts) {
  const r = Evaluate.evaluate(c2, "checkout-variant", ctx)
  const k = `${r.reason.kind}:${r.reason.ruleId ?? "-"}:${r.variationKey}`
  reasons.set(k, (reasons.get(k) ?? 0) + 1)
}
if (Object.keys(Evaluate.evaluateAll(c3, contexts[0]!)).length !== 200) throw new Error("W3 must evaluate 200 flags")
checkCeiling(contexts, (ctx) => Evaluate.evaluate(c2, "checkout-variant", ctx))

// Each workload is its own loop (not one shared harness calling closures), so the harness adds the
// same small cost to every figure: a counter, a modulo, one comparison.
const ctx0 = contexts[0]!
const workload = (name: string, unit: string, target: string, ops: number, run: (ops: number) => void): Workload => ({
  name,
  unit,
  target,
  ops,
  run,
  wall: [],
  cpu: []
})
const workloads: ReadonlyArray<Workload> = [
  workload("W1 one boolean flag, no rules", "per evaluation", "<= 50 ns", 1_000_000, (ops) => {
    for (let i = 0; i < ops; i++) if (Evaluate.evaluate(c1, "kill-switch", ctx0) === undefined) sink++
  }),
  workload("W2 three rules, 1,000 contexts", "per evaluation", "<= 300 ns", 500_000, (ops) => {
    for (let i = 0; i < ops; i++) if (Evaluate.evaluate(c2, "checkout-variant", contexts[i % 1000]!) === undefined) sink++
  }),
  workload("W2 hand-written (the ceiling)", "per evaluation", "-", 500_000, (ops) => {
    for (let i = 0; i < ops; i++) if (w2Ceiling(contexts[i % 1000]!) === undefined) sink++
  }),
  workload("W2S W2 + a 1,000,000-key segment rule", "per evaluation", "<= 1.05 x W2", 500_000, (ops) => {
    for (let i = 0; i < ops; i++) if (Evaluate.evaluate(c2s, "checkout-variant", contexts[i % 1000]!) === undefined) sink++
  }),
  workload("W3 evaluateAll, 200 W2-shaped flags", "per call", "<= 80 µs", 1_000, (ops) => {
    for (let i = 0; i < ops; i++) if (Evaluate.evaluateAll(c3, contexts[i % 1000]!) === undefined) sink++
  })
]
const GAUGE_OPS = 500_000
const gaugeCpu: Array<number> = []

for (let w = 0; w < 3; w++) {
  sink ^= runGauge(GAUGE_OPS)
  for (const wl of workloads) wl.run(wl.ops)
}
for (let r = 0; r < ROUNDS; r++) {
  gaugeCpu.push(time(GAUGE_OPS, (ops) => void (sink ^= runGauge(ops)))[1])
  for (const wl of workloads) {
    const [wall, cpu] = time(wl.ops, wl.run)
    wl.wall.push(wall)
    wl.cpu.push(cpu)
  }
}

const fastestGauge = Math.min(...gaugeCpu)
const fullSpeed = gaugeCpu.map((g) => g <= fastestGauge * FULL_SPEED)
const countFull = fullSpeed.filter(Boolean).length
const fmt = (ns: number) => (ns >= 1000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`)
const split = (xs: ReadonlyArray<number>, full: boolean): string => {
  const picked = xs.filter((_, i) => fullSpeed[i] === full)
  return picked.length === 0 ? "-" : fmt(median(picked))
}

console.log(`machine: ${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? "?"}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`)
console.log(`W2 path mix over the 1,000 contexts: ${[...reasons].map(([k, n]) => `${k}=${n}`).join(", ")}`)
console.log(
  `gauge (bench/gauge.ts, no Flagport code), CPU per op: fastest ${fmt(fastestGauge)}, median ${fmt(median(gaugeCpu))}, slowest ${fmt(Math.max(...gaugeCpu))}; ` +
    `${countFull} of ${ROUNDS} rounds within ${FULL_SPEED}x of this run's fastest ("fast" below; when the whole run was slowed, ` +
    `every round is "fast": compare the gauge with its full-speed level on this machine in docs/operations/benchmarks.md)`
)
console.log(`${"".padEnd(38)} ${"all rounds: wall".padStart(17)} ${"cpu".padStart(9)} ${"fast".padStart(9)} ${"slow".padStart(9)} ${"/ gauge".padStart(8)}`)
for (const wl of workloads) {
  console.log(
    `${wl.name.padEnd(38)} ${fmt(median(wl.wall)).padStart(17)} ${fmt(median(wl.cpu)).padStart(9)} ${split(wl.cpu, true).padStart(9)} ` +
      `${split(wl.cpu, false).padStart(9)} ${median(wl.cpu.map((c, i) => c / gaugeCpu[i]!)).toFixed(2).padStart(8)}  ${wl.unit} (target ${wl.target})`
  )
}
const w2Cpu = workloads[1]!.cpu
const ceilingCpu = workloads[2]!.cpu
const perRound = w2Cpu.map((c, i) => c / ceilingCpu[i]!)
console.log(
  `W2 / hand-written ceiling, CPU, per round: median ${median(perRound).toFixed(2)} (${Math.min(...perRound).toFixed(2)} to ${Math.max(...perRound).toFixed(2)}); ` +
    `of the medians ${(median(w2Cpu) / median(ceilingCpu)).toFixed(2)} (target <= 1.5)`
)
if (sink === 0.5) console.log(sink)
