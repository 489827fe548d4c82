/**
 * In-process A/B of the evaluator on one workload (run by hand):
 *
 *   npx tsx bench/evaluator-ab.ts [REV=HEAD] [PROCESSES=8] [WORKLOAD=W2]
 *
 * WORKLOAD is W1, W2 or W3 (bench/workloads.ts; W3 times one evaluateAll of 200 flags), or W2P:
 * then A is the working tree on plain W2 and B the working tree on W2 with two prerequisites
 * (REV is not used), so the ratio is what two prerequisites cost.
 *
 * Compares the working tree's `src/` (B) with `src/` at git revision REV (A). This machine's speed
 * changes over time (bench/LOG.md, "Why W2 used to land at 300 to 350 ns"), so two separate benchmark runs cannot be
 * compared; here both evaluators live in one process and alternate 500,000-evaluation rounds
 * (16 rounds each, after a warm-up), so both see the same machine. Each process prints its medians
 * and the ratio B / A; the last line gives the median ratio over the processes and its range.
 * Before timing, every process checks that A and B give the same result for every W2 context.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type * as EvaluateModule from "../src/domain/evaluation/Evaluate.js"
import type { ConfigSnapshot } from "../src/domain/evaluation/ConfigSnapshot.js"
import { contexts, w1, w2, w2p, w3 } from "./workloads.js"

const ROUNDS = 16
const WORKLOADS: Record<string, { readonly a: ConfigSnapshot; readonly b: ConfigSnapshot; readonly flag: string | null; readonly ops: number }> = {
  W1: { a: w1, b: w1, flag: "kill-switch", ops: 500_000 },
  W2: { a: w2, b: w2, flag: "checkout-variant", ops: 500_000 },
  // null: evaluateAll; 200 flags per call.
  W3: { a: w3, b: w3, flag: null, ops: 2_500 },
  W2P: { a: w2, b: w2p, flag: "checkout-variant", ops: 500_000 }
}

const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!

/** One process: A from `oldSrc`, B from this tree; prints "ratio R" as its last line. */
const child = async (oldSrc: string, workload: string) => {
  const { a: snapshotA, b: snapshotB, flag: FLAG, ops: OPS } = WORKLOADS[workload]!
  // Revisions before the domain was split into folders kept the evaluator at src/domain/Evaluate.ts.
  const oldPath = ["src/domain/evaluation/Evaluate.ts", "src/domain/Evaluate.ts"].map((p) => join(oldSrc, p)).find((p) => existsSync(p))
  if (oldPath === undefined) throw new Error(`no evaluator found in ${oldSrc}`)
  const B = (await import("../src/domain/evaluation/Evaluate.js")) as typeof EvaluateModule
  const A = workload === "W2P" ? B : ((await import(pathToFileURL(oldPath).href)) as typeof EvaluateModule)
  const ca = A.compile(snapshotA)
  const cb = B.compile(snapshotB)
  for (const context of contexts) {
    const [ra, rb] = FLAG === null ? [A.evaluateAll(ca, context), B.evaluateAll(cb, context)] : [A.evaluate(ca, FLAG, context), B.evaluate(cb, FLAG, context)]
    if (JSON.stringify(ra) !== JSON.stringify(rb)) {
      throw new Error(`A and B disagree for ${JSON.stringify(context)}`)
    }
  }
  let sink = 0
  // Two loops written out (not one harness taking a function), so each is optimised on its own.
  const roundA = () => {
    const start = process.hrtime.bigint()
    if (FLAG === null) {
      for (let i = 0; i < OPS; i++) if (A.evaluateAll(ca, contexts[i % 1000]!) === undefined) sink++
    } else {
      for (let i = 0; i < OPS; i++) if (A.evaluate(ca, FLAG, contexts[i % 1000]!) === undefined) sink++
    }
    return Number(process.hrtime.bigint() - start) / OPS
  }
  const roundB = () => {
    const start = process.hrtime.bigint()
    if (FLAG === null) {
      for (let i = 0; i < OPS; i++) if (B.evaluateAll(cb, contexts[i % 1000]!) === undefined) sink++
    } else {
      for (let i = 0; i < OPS; i++) if (B.evaluate(cb, FLAG, contexts[i % 1000]!) === undefined) sink++
    }
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
  const [rev = "HEAD", processesArg = "8", workload = "W2"] = process.argv.slice(2)
  if (WORKLOADS[workload] === undefined) throw new Error(`unknown workload ${workload}: one of ${Object.keys(WORKLOADS).join(", ")}`)
  const processes = Number(processesArg)
  // Inside the checkout (.tmp/ is ignored by git), so the old sources resolve their packages
  // (re2js, effect) from this checkout's node_modules, as they would in a checkout of REV.
  const scratch = fileURLToPath(new URL("../.tmp/", import.meta.url))
  mkdirSync(scratch, { recursive: true })
  const dir = mkdtempSync(join(scratch, "evaluator-ab-"))
  try {
    // src/ as a tar passed 1 MiB (execFileSync's default buffer), so the buffer is set.
    const archive = execFileSync("git", ["archive", rev, "src"], { maxBuffer: 256 * 1024 * 1024 })
    execFileSync("tar", ["-x", "-C", dir], { input: archive })
    const ratios: Array<number> = []
    for (let p = 0; p < processes; p++) {
      const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), "--child", dir, workload], { encoding: "utf8" })
      if (run.status !== 0) throw new Error(`child failed:\n${run.stdout}\n${run.stderr}`)
      const lines = run.stdout.trim().split("\n")
      const ratio = Number(lines.at(-1)!.replace("ratio ", ""))
      ratios.push(ratio)
      console.log(`process ${p + 1}: ${lines[0]}  B/A ${ratio.toFixed(3)}`)
    }
    const sorted = [...ratios].sort((a, b) => a - b)
    const what = workload === "W2P" ? "W2 with two prerequisites / plain W2 (working tree)" : `B (working tree) / A (${rev}) on ${workload}`
    console.log(`${what}: median ${median(ratios).toFixed(3)}, range ${sorted[0]!.toFixed(3)} to ${sorted.at(-1)!.toFixed(3)}, ${processes} processes`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === "--child") await child(process.argv[3]!, process.argv[4]!)
else parent()
