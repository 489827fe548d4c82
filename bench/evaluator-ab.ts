/**
 * In-process A/B of the evaluator on W2 (run by hand):
 *
 *   npx tsx bench/evaluator-ab.ts [REV=HEAD] [PROCESSES=8]
 *
 * Compares the working tree's `src/` (B) with `src/` at git revision REV (A). This machine's speed
 * changes over time (docs/benchmarks.md, Evaluator), so two separate benchmark runs cannot be
 * compared; here both evaluators live in one process and alternate 500,000-evaluation rounds
 * (16 rounds each, after a warm-up), so both see the same machine. Each process prints its medians
 * and the ratio B / A; the last line gives the median ratio over the processes and its range.
 * Before timing, every process checks that A and B give the same result for every W2 context.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type * as EvaluateModule from "../src/domain/evaluation/Evaluate.js"
import { contexts, w2 } from "./workloads.js"

const ROUNDS = 16
const OPS = 500_000
const FLAG = "checkout-variant"

const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

/** One process: A from `oldSrc`, B from this tree; prints "ratio R" as its last line. */
const child = async (oldSrc: string) => {
  // Revisions before the domain was split into folders kept the evaluator at src/domain/Evaluate.ts.
  const oldPath = ["src/domain/evaluation/Evaluate.ts", "src/domain/Evaluate.ts"].map((p) => join(oldSrc, p)).find((p) => existsSync(p))
  if (oldPath === undefined) throw new Error(`no evaluator found in ${oldSrc}`)
  const A = (await import(pathToFileURL(oldPath).href)) as typeof EvaluateModule
  const B = (await import("../src/domain/evaluation/Evaluate.js")) as typeof EvaluateModule
  const ca = A.compile(w2)
  const cb = B.compile(w2)
  for (const context of contexts) {
    if (JSON.stringify(A.evaluate(ca, FLAG, context)) !== JSON.stringify(B.evaluate(cb, FLAG, context))) {
      throw new Error(`A and B disagree for ${JSON.stringify(context)}`)
    }
  }
  let sink = 0
  // Two loops written out (not one harness taking a function), so each is optimised on its own.
  const roundA = () => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < OPS; i++) if (A.evaluate(ca, FLAG, contexts[i % 1000]!) === undefined) sink++
    return Number(process.hrtime.bigint() - start) / OPS
  }
  const roundB = () => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < OPS; i++) if (B.evaluate(cb, FLAG, contexts[i % 1000]!) === undefined) sink++
    return Number(process.hrtime.bigint() - start) / OPS
  }
  for (let w = 0; w < 4; w++) {
    roundA()
    roundB()
  }
  const as: Array<number> = []
  const bs: Array<number> = []
  // Alternate which goes first, so neither always runs right after the other.
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      as.push(roundA())
      bs.push(roundB())
    } else {
      bs.push(roundB())
      as.push(roundA())
    }
  }
  console.log(`A ${median(as).toFixed(0)} ns  B ${median(bs).toFixed(0)} ns${sink < 0 ? " " : ""}`)
  console.log(`ratio ${(median(bs) / median(as)).toFixed(3)}`)
}

const parent = () => {
  const [rev = "HEAD", processesArg = "8"] = process.argv.slice(2)
  const processes = Number(processesArg)
  const dir = mkdtempSync(join(tmpdir(), "flagport-ab-"))
  try {
    const archive = execFileSync("git", ["archive", rev, "src"])
    execFileSync("tar", ["-x", "-C", dir], { input: archive })
    const ratios: Array<number> = []
    for (let p = 0; p < processes; p++) {
      const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--child", dir], { encoding: "utf8" })
      if (run.status !== 0) throw new Error(`child failed:\n${run.stdout}\n${run.stderr}`)
      const lines = run.stdout.trim().split("\n")
      const ratio = Number(lines.at(-1)!.replace("ratio ", ""))
      ratios.push(ratio)
      console.log(`process ${p + 1}: ${lines[0]}  B/A ${ratio.toFixed(3)}`)
    }
    const sorted = [...ratios].sort((a, b) => a - b)
    console.log(`B (working tree) / A (${rev}) on W2: median ${median(ratios).toFixed(3)}, range ${sorted[0]!.toFixed(3)} to ${sorted.at(-1)!.toFixed(3)}, ${processes} processes`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--child") await child(process.argv[3]!)
else parent()
