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

let passed = 0
let failed = 0
let suitesFailed = 0
try {
  const json = JSON.parse(readFileSync(report, "utf8"))
  passed = json.numPassedTests
  failed = json.numFailedTests
  suitesFailed = json.numFailedTestSuites ?? 0
} catch {
  console.error("No vitest report was written: the test run did not complete.")
  failed = Math.max(failed, 1)
}
console.log(`${passed} passed, ${failed} failed`)
const ok = run.status === 0 && failed === 0 && suitesFailed === 0 && passed > 0
if (passed === 0) console.error("Zero tests passed: treating the run as failed.")
process.exit(ok ? 0 : 1)
