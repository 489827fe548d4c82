#!/usr/bin/env node
// Runs the whole vitest suite and ends with the plain line CI reads: `N passed, M failed`.
// Exits non-zero on any failure and when no test ran at all.
import { spawnSync } from "node:child_process"
import { readFileSync, rmSync, mkdirSync } from "node:fs"

mkdirSync(".tmp", { recursive: true })
const report = ".tmp/vitest-report.json"
rmSync(report, { force: true })
const run = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit" }
)

/** How the vitest process ended, in words: its exit code, the signal that killed it, or why it never ran. */
function howVitestEnded(result) {
  if (result.error) return `could not be run: ${result.error.message}`
  if (result.signal) return `was killed by ${result.signal}`
  return `exited with code ${result.status}`
}

let passed = 0
let failed = 0
let suitesFailed = 0
let reportWritten = false
try {
  const json = JSON.parse(readFileSync(report, "utf8"))
  passed = json.numPassedTests
  failed = json.numFailedTests
  suitesFailed = json.numFailedTestSuites ?? 0
  reportWritten = true
} catch {
  console.error(`No vitest report was written: the test run did not complete (${howVitestEnded(run)}).`)
}
if (reportWritten && run.status !== 0) console.error(`vitest ${howVitestEnded(run)}.`)
if (passed === 0) console.error("Zero tests passed: treating the run as failed.")
const ok = run.status === 0 && failed === 0 && suitesFailed === 0 && passed > 0
// A run that failed outside any test (setup, a file that does not load) still counts as one failure.
if (!ok) failed = Math.max(failed, 1)
console.log(`${passed} passed, ${failed} failed`)
process.exit(ok ? 0 : 1)
