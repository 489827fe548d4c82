/**
 * The issue's simulation through a real server (HttpRamps.ts): a `flagport serve` process on
 * SQLite, its guardrails checked every second (FLAGPORT_RELEASE_PLAN_CHECK_SECONDS=1), plans
 * started through the API and stepped by its scheduler, traffic from the SDK over the stream,
 * `POST /v1/exposures` and `POST /v1/track`. Harmless (A/A) ramps are stopped in no more than alpha
 * of the runs; ramps whose treatment doubles the error rate are rolled back before their third
 * step in at least 95% of them.
 *
 * The suite runs FLAGPORT_RAMP_RUNS of each (default 10) in one batch; `bench/release-plan-ramps.sh`
 * runs the issue's 200 of each (in batches of FLAGPORT_RAMP_BATCH on one server), with the figures
 * in docs/operations/benchmarks.md.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { freshSqliteUrl, keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { type RampOutcome, type RampSettings, runRamps } from "./HttpRamps.js"

const RUNS = Number(process.env["FLAGPORT_RAMP_RUNS"] ?? 10)
const BATCH = Number(process.env["FLAGPORT_RAMP_BATCH"] ?? 10)
const ALPHA = 0.05

/**
 * The issue's 200 runs are judged as the issue says (at most alpha of them stopped, at least 95%
 * caught). The suite's 10 are too few for that: one miss in 10 is 90%, and a rate of exactly 95%
 * misses at least once in 40% of such runs. So a smaller count is judged as a test of the rate: it
 * fails only when a rate of alpha (or 95%) would give a count that far out less than 1% of the time.
 */
const ISSUE_RUNS = 200
const binomial = (n: number, p: number) => (k: number) => {
  let c = 1
  for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1)
  return c * p ** k * (1 - p) ** (n - k)
}
/** The most stops a rate of `p` over `n` runs gives with probability 0.99 or more. */
const mostAt = (n: number, p: number): number => {
  if (n >= ISSUE_RUNS) return p * n
  const pmf = binomial(n, p)
  let k = n
  let above = 0
  while (k > 0 && above + pmf(k) < 0.01) above += pmf(k--)
  return k
}
/** The fewest catches a rate of `p` over `n` runs gives with probability 0.99 or more. */
const fewestAt = (n: number, p: number): number => {
  if (n >= ISSUE_RUNS) return p * n
  const pmf = binomial(n, p)
  let k = 0
  let below = 0
  while (k < n && below + pmf(k) < 0.01) below += pmf(k++)
  return k
}
const STEPS = [5_000, 25_000, 50_000, 100_000]

const settings = (batch: number, aa: number, doubled: number): RampSettings => ({
  aa,
  doubled,
  steps: STEPS,
  holdMinutes: 0.1,
  unitsPerSecond: 150,
  returningShare: 0.1,
  baseErrorRate: 0.2,
  alpha: ALPHA,
  tickMs: 250,
  seed: 4_300 + batch,
  prefix: `b${batch}`
})

let server: ServerProcess | undefined
afterEach(() => {
  if (server !== undefined && server.child.exitCode === null) server.child.kill("SIGKILL")
  server = undefined
})

describe("release plan ramps simulated through a real server", () => {
  it(`${RUNS} A/A ramps stopped in at most alpha of them; ${RUNS} doubling the error rate rolled back before the third step in 95%`, { timeout: 60_000 + RUNS * 15_000 }, async () => {
    server = await startServer(["serve", "--init"], { DATABASE_URL: freshSqliteUrl(), FLAGPORT_RELEASE_PLAN_CHECK_SECONDS: "1" })
    const { CLIENT_KEY, PROJECT_ID, SERVER_KEY } = keyLines(server.output().stdout)
    const target = { url: server.baseUrl, serverKey: SERVER_KEY!, clientKey: CLIENT_KEY!, projectId: PROJECT_ID ?? "default" }
    const outcomes: Array<RampOutcome> = []
    let seconds = 0
    let units = 0
    let maxPending = 0
    let dropped = 0
    for (let batch = 0, done = 0; done < RUNS; batch++) {
      const size = Math.min(BATCH, RUNS - done)
      const report = await runRamps(target, settings(batch, size, size), Date.now() + Number(process.env["FLAGPORT_RAMP_DEADLINE_MS"] ?? 120_000))
      outcomes.push(...report.outcomes)
      const stopped = report.outcomes.filter((o) => o.kind === "aa" && o.status !== "completed").length
      const early = report.outcomes.filter((o) => o.kind === "doubled" && o.status === "harmed" && o.harmWeight !== null && o.harmWeight <= STEPS[1]!).length
      const unfinishedHere = report.outcomes.filter((o) => o.status === "unfinished").length
      console.info(`batch ${batch}: A/A stopped ${stopped} of ${size}, doubled caught before the third step ${early} of ${size}, unfinished ${unfinishedHere}; ${report.seconds.toFixed(1)} s, SDK backlog at most ${report.maxPending}`)
      seconds += report.seconds
      units += report.units
      maxPending = Math.max(maxPending, report.maxPending)
      dropped += report.dropped
      done += size
    }

    const aa = outcomes.filter((o) => o.kind === "aa")
    const doubled = outcomes.filter((o) => o.kind === "doubled")
    const unfinished = outcomes.filter((o) => o.status === "unfinished")
    expect(unfinished.map((o) => `${o.flagKey} at step ${o.step} after ${o.units} units`), `ramps that did not end in time; server: ${server.output().stderr.slice(-2_000)}`).toEqual([])
    const aaStopped = aa.filter((o) => o.status !== "completed")
    const caughtEarly = doubled.filter((o) => o.status === "harmed" && o.harmAction === "rolledBack" && o.harmWeight !== null && o.harmWeight <= STEPS[1]!)
    const harmWeights = doubled.map((o) => `${o.harmWeight ?? "never"}${o.harmUnits === null ? "" : ` (${o.harmUnits.treatment}/${o.harmUnits.control})`}`).join(", ")
    console.info(
      `release plan ramps over HTTP: A/A stopped ${aaStopped.length} of ${aa.length} (alpha ${ALPHA}); ` +
        `doubled errors rolled back before the third step ${caughtEarly.length} of ${doubled.length} (harm at weights ${harmWeights}); ` +
        `${units} unit evaluations in ${seconds.toFixed(1)} s of ramps; the SDK held at most ${maxPending} items unsent, dropped ${dropped}`
    )
    expect(aaStopped.length, JSON.stringify(aaStopped)).toBeLessThanOrEqual(mostAt(aa.length, ALPHA))
    expect(caughtEarly.length).toBeGreaterThanOrEqual(fewestAt(doubled.length, 0.95))
  })
})
