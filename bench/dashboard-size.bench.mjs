// The dashboard's weight: every asset built as `npm run build` builds it, minified, and its size
// gzipped (level 9), against the 120 KB budget for JavaScript and CSS together.
// Run: node bench/dashboard-size.bench.mjs
import { gzipSync } from "node:zlib"
import { buildDashboard } from "../ui/build.mjs"

const BUDGET = 120 * 1024
const files = await buildDashboard()
let scripts = 0
for (const [name, content] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
  const gz = gzipSync(content, { level: 9 }).length
  if (/\.(js|css)$/.test(name)) scripts += gz
  process.stdout.write(`${name.padEnd(12)} ${String(content.length).padStart(7)} B minified  ${String(gz).padStart(6)} B gzipped\n`)
}
process.stdout.write(`JS + CSS gzipped: ${(scripts / 1024).toFixed(1)} KB of ${BUDGET / 1024} KB\n`)
if (scripts > BUDGET) process.exitCode = 1
