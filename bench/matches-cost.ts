/**
 * The evaluation cost of the `matches` operator, old engine against new, run by hand:
 *
 *   npx tsx bench/matches-cost.ts [REV=HEAD]
 *
 * A is the evaluator in `src/` at git revision REV, B the working tree's. Both live in one process
 * and alternate rounds (as in bench/evaluator-ab.ts), so both see the same machine. Each case is
 * one flag whose single rule has one `matches` condition, evaluated through `Evaluate.evaluate`;
 * the figure is the median time per evaluation over the rounds. A case that an engine cannot
 * compile (a pattern outside its dialect) prints "-".
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import type * as EvaluateModule from "../src/domain/evaluation/Evaluate.js"
import type { ConfigSnapshot } from "../src/domain/evaluation/ConfigSnapshot.js"

const ROUNDS = 9

const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

const letters = (n: number, seed: number): string => {
  let s = ""
  let x = seed
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    s += String.fromCharCode(98 + ((x >> 16) & 1)) // "b" or "c": many live automaton threads
  }
  return s
}

interface Case {
  readonly name: string
  readonly pattern: string
  readonly value: unknown
  /** Whether the pattern matches the value: an engine that answers otherwise does not support the pattern. */
  readonly matches: boolean
  /** Evaluations per round: fewer for the expensive cases. */
  readonly ops: number
}

const CASES: ReadonlyArray<Case> = [
  { name: "email, anchored", pattern: "^[a-z]+@example\\.com$", value: "someone@example.com", matches: true, ops: 200_000 },
  {
    name: "user agent, search",
    pattern: "Chrome/\\d+",
    value: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    matches: true,
    ops: 200_000
  },
  { name: "IPv4", pattern: "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$", value: "192.168.1.254", matches: true, ops: 200_000 },
  { name: "(?i) case-insensitive", pattern: "(?i)^beta-", value: "BETA-tester", matches: true, ops: 200_000 },
  { name: "\\p{L} letters", pattern: "^\\p{L}+$", value: "Zoë", matches: true, ops: 200_000 },
  {
    name: "issue 10 pattern, 100 x 1,024 chars",
    pattern: "[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}[a-z]{0,99}0",
    value: Array.from({ length: 100 }, (_, i) => letters(1024, i + 1)),
    matches: false,
    ops: 3
  },
  {
    name: "live-thread pattern, 100 x 1,024 chars",
    pattern: "b[a-z]{0,20}[a-z]{0,20}[!?]",
    value: Array.from({ length: 100 }, (_, i) => letters(1024, i + 1)),
    matches: false,
    ops: 3
  },
  {
    // The widest `[bc]{0,n}b[!?]` within regexSizePerCondition, over the largest context the limits allow.
    name: "at the limits: `[bc]{0,23}b[!?]`, 7 x 1,024 chars",
    pattern: "[bc]{0,23}b[!?]",
    value: Array.from({ length: 7 }, (_, i) => letters(1024, i + 1)),
    matches: false,
    ops: 20
  }
]

const snapshot = (pattern: string): ConfigSnapshot => ({
  environment: "production",
  flags: [
    {
      key: "f",
      type: "boolean",
      enabled: true,
      variations: [
        { key: "on", value: true },
        { key: "off", value: false }
      ],
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [{ id: "r", conditions: [{ attribute: "v", operator: "matches", values: [pattern] }], variationKey: "on" }]
    }
  ],
  segments: []
})

type Run = (() => number) | undefined

/** A timed round for one engine and case (ns per evaluation), or undefined when it cannot compile the pattern. */
const runner = (E: typeof EvaluateModule, c: Case): Run => {
  const compiled = E.compile(snapshot(c.pattern))
  const context = { key: "user-1", attributes: { v: c.value } }
  const probe = E.evaluate(compiled, "f", context)
  if (probe.reason.kind === "ERROR" || (probe.reason.kind === "RULE_MATCH") !== c.matches) return undefined
  let sink = 0
  return () => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < c.ops; i++) if (E.evaluate(compiled, "f", context).value === null) sink++
    return Number(process.hrtime.bigint() - start) / c.ops + (sink < 0 ? 1 : 0)
  }
}

const format = (ns: number | undefined): string =>
  ns === undefined ? "-" : ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : ns >= 1e4 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(0)} ns`

const main = async () => {
  const rev = process.argv[2] ?? "HEAD"
  const dir = mkdtempSync(join(tmpdir(), "flagport-matches-"))
  try {
    execFileSync("tar", ["-x", "-C", dir], { input: execFileSync("git", ["archive", rev, "src"]) })
    const oldPath = ["src/domain/evaluation/Evaluate.ts", "src/domain/Evaluate.ts"].map((p) => join(dir, p)).find((p) => existsSync(p))
    if (oldPath === undefined) throw new Error(`no evaluator found at ${rev}`)
    const A = (await import(pathToFileURL(oldPath).href)) as typeof EvaluateModule
    const B = (await import("../src/domain/evaluation/Evaluate.js")) as typeof EvaluateModule
    console.log(`| case | A (${rev}) | B (working tree) |`)
    console.log("|---|---|---|")
    for (const c of CASES) {
      const a = runner(A, c)
      const b = runner(B, c)
      a?.()
      b?.()
      const as: Array<number> = []
      const bs: Array<number> = []
      for (let r = 0; r < ROUNDS; r++) {
        if (a !== undefined) as.push(a())
        if (b !== undefined) bs.push(b())
      }
      console.log(`| ${c.name} | ${format(a && median(as))} | ${format(b && median(bs))} |`)
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
