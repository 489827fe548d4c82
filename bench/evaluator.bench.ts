/**
 * Evaluator benchmark (run by hand): npx tsx bench/evaluator.bench.ts
 *
 * W1: one boolean flag, enabled, no rules.
 * W2: a string flag A/B/C with three ordered rules: (1) country in [US, CA, MX] AND plan in
 *     [pro, enterprise] -> A; (2) email endsWith "@example.com" -> B; (3) 50/50 rollout by key
 *     between A and C; fallthrough C. 1,000 precomputed contexts cycled.
 * W3: evaluateAll over 200 W2-shaped flags (each its own key) for one context.
 *
 * Each workload: warm-up, then ROUNDS timed rounds; the median ns per operation is reported, both
 * wall-clock and process CPU time (the latter is what to read when other processes load the machine).
 */
import * as os from "node:os"
import type { ConfigSnapshot, SnapshotFlag } from "../src/domain/ConfigSnapshot.js"
import * as Evaluate from "../src/domain/Evaluate.js"
import type { EvaluationContext } from "../src/domain/EvaluationContext.js"

const ROUNDS = 15

const w2Flag = (key: string): SnapshotFlag => ({
  key,
  type: "string",
  enabled: true,
  variations: [
    { key: "A", value: "a" },
    { key: "B", value: "b" },
    { key: "C", value: "c" }
  ],
  defaultVariationKey: "C",
  offVariationKey: "C",
  rules: [
    {
      id: "north-america-paid",
      conditions: [
        { attribute: "country", operator: "in", values: ["US", "CA", "MX"] },
        { attribute: "plan", operator: "in", values: ["pro", "enterprise"] }
      ],
      variationKey: "A"
    },
    { id: "staff", conditions: [{ attribute: "email", operator: "endsWith", values: ["@example.com"] }], variationKey: "B" },
    {
      id: "half",
      conditions: [],
      rollout: { bucketBy: "key", variations: [{ variationKey: "A", weight: 50_000 }, { variationKey: "C", weight: 50_000 }] }
    }
  ]
})

const w1: ConfigSnapshot = {
  environment: "production",
  flags: [
    {
      key: "kill-switch",
      type: "boolean",
      enabled: true,
      variations: [
        { key: "on", value: true },
        { key: "off", value: false }
      ],
      defaultVariationKey: "on",
      offVariationKey: "off",
      rules: []
    }
  ],
  segments: []
}
const w2: ConfigSnapshot = { environment: "production", flags: [w2Flag("checkout-variant")], segments: [] }
const w3: ConfigSnapshot = {
  environment: "production",
  flags: Array.from({ length: 200 }, (_, i) => w2Flag(`flag-${i}`)),
  segments: []
}

// Deterministic pseudo-random contexts (mulberry32), so every run measures the same mix.
let seed = 42
const rand = (n: number): number => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
}
const countries = ["US", "CA", "MX", "DE", "FR", "BR", "JP", "IN"]
const plans = ["free", "pro", "enterprise", "team"]
const domains = ["@example.com", "@mail.test", "@corp.test", "@gmail.test"]
const contexts: Array<EvaluationContext> = Array.from({ length: 1000 }, (_, i) => ({
  key: `user-${i}-${rand(1_000_000)}`,
  attributes: {
    email: `person${i}${domains[rand(domains.length)]}`,
    country: countries[rand(countries.length)],
    plan: plans[rand(plans.length)]
  }
}))

let sink = 0
const median = (xs: Array<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[s.length >> 1]!
}

interface Measurement {
  /** Median wall-clock ns per operation over the rounds. */
  readonly wall: number
  /** Median process CPU ns per operation (user + system): robust when other processes share the cores. */
  readonly cpu: number
}

/** Runs `body(i)` `ops` times per round, after a warm-up; medians of ROUNDS rounds. */
const measure = (ops: number, body: (i: number) => unknown): Measurement => {
  for (let w = 0; w < 3; w++) for (let i = 0; i < ops; i++) if (body(i) === undefined) sink++ // warm-up (JIT)
  const walls: Array<number> = []
  const cpus: Array<number> = []
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = process.cpuUsage()
    const start = process.hrtime.bigint()
    for (let i = 0; i < ops; i++) if (body(i) === undefined) sink++
    const wall = Number(process.hrtime.bigint() - start)
    const cpu = process.cpuUsage(cpu0)
    walls.push(wall / ops)
    cpus.push(((cpu.user + cpu.system) * 1000) / ops)
  }
  return { wall: median(walls), cpu: median(cpus) }
}

const c1 = Evaluate.compile(w1)
const c2 = Evaluate.compile(w2)
const c3 = Evaluate.compile(w3)

// Sanity: the workloads really exercise every path of W2, and W3 answers for all 200 flags.
const reasons = new Map<string, number>()
for (const ctx of contexts) {
  const r = Evaluate.evaluate(c2, "checkout-variant", ctx)
  const k = `${r.reason.kind}:${r.reason.ruleId ?? "-"}:${r.variationKey}`
  reasons.set(k, (reasons.get(k) ?? 0) + 1)
}
if (Object.keys(Evaluate.evaluateAll(c3, contexts[0]!)).length !== 200) throw new Error("W3 must evaluate 200 flags")

const ctx0 = contexts[0]!
const w1m = measure(2_000_000, () => Evaluate.evaluate(c1, "kill-switch", ctx0))
const w2m = measure(1_000_000, (i) => Evaluate.evaluate(c2, "checkout-variant", contexts[i % 1000]!))
const w3m = measure(2_000, (i) => Evaluate.evaluateAll(c3, contexts[i % 1000]!))

const fmt = (ns: number) => (ns >= 1000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`)
const row = (name: string, m: Measurement, unit: string, target: string) =>
  console.log(`${name.padEnd(40)} wall ${fmt(m.wall).padStart(9)}  cpu ${fmt(m.cpu).padStart(9)} ${unit}  (target ${target})`)
console.log(`machine: ${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? "?"}, node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`)
console.log(`W2 path mix over the 1,000 contexts: ${[...reasons].map(([k, n]) => `${k}=${n}`).join(", ")}`)
row("W1 one boolean flag, no rules", w1m, "per evaluation", "<= 50 ns")
row("W2 three rules, 1,000 contexts", w2m, "per evaluation", "<= 300 ns")
row("W3 evaluateAll, 200 W2-shaped flags", w3m, "per call      ", "<= 80 µs")
if (sink < 0) console.log(sink)
