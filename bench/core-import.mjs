// The cost of `import { Evaluate } from "flagport"` (the root entry, the pure core) after
// `npm run build`: its load time in fresh Node processes (ESM and CommonJS, median of N, next to
// `effect` alone, which the core needs) and its size as one minified bundle (esbuild).
//   npm run build && node bench/core-import.mjs [N]
import { execFileSync } from "node:child_process"
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const runs = Number(process.argv[2] ?? 15)

const timeOf = (code) =>
  Number(execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8" }).trim())
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const measure = (label, code) => {
  const times = Array.from({ length: runs }, () => timeOf(code))
  console.log(`${label.padEnd(34)} median ${median(times).toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)})`)
}
const timed = (load) => `const t = performance.now(); ${load}; console.log(performance.now() - t)`

measure("effect alone (ESM)", timed(`await import("effect")`))
measure("flagport root, ESM dist/index.js", timed(`await import("./dist/index.js")`))
measure("flagport root, CJS dist/index.cjs", timed(`(await import("node:module")).createRequire(import.meta.url)("./dist/index.cjs")`))

const result = await build({
  stdin: { contents: 'import { Evaluate } from "./dist/index.js"\nconsole.log(Evaluate)\n', resolveDir: root, loader: "js" },
  bundle: true,
  minify: true,
  platform: "node",
  format: "esm",
  write: false,
  metafile: true,
  logLevel: "error"
})
const bytes = result.outputFiles[0].contents.length
const packages = new Map()
for (const [path, input] of Object.entries(result.metafile.inputs)) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? "flagport (dist)"
  packages.set(name, (packages.get(name) ?? 0) + input.bytes)
}
console.log(`bundle of import { Evaluate }: ${(bytes / 1024).toFixed(0)} KiB minified; inputs by package (bytes read):`)
for (const [name, size] of [...packages].sort((a, b) => b[1] - a[1])) console.log(`  ${name.padEnd(20)} ${(size / 1024).toFixed(0)} KiB`)
