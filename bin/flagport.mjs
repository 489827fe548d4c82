#!/usr/bin/env node
// The `flagport` command (`npx flagport ...`, `npm start`). See docs/guide/cli.md, "How the binary starts".
//
// - Installed package (only bin/ and dist/ are published): runs dist/cli.js, built by `npm run build`.
// - Checkout (the TypeScript sources are here): no build step. The sources are bundled with esbuild
//   (a dependency of tsx/tsup, so present after `npm install`) into node_modules/.cache/flagport/,
//   keyed by a fingerprint of the sources, and that bundle runs. A bundle starts several times
//   faster than running the sources through tsx; it is rebuilt (in about 2 s) only when a source
//   file changes. If esbuild cannot be used, the sources run through tsx instead.
//   esbuild is only a build step: its service process is stopped once the bundle is written, so
//   nothing of it lives on beside the server.
// - The bundle is CommonJS, compiled through node:vm with V8's code cache kept beside it (`.code`):
//   a start then skips parsing the bundle's 5.5 MB and compiling the functions the previous start
//   ran (docs/operations/benchmarks.md, "Start-up"). The cache is written once per bundle, two
//   seconds into a process or at its exit, whichever comes first, and again if V8 refuses it
//   (another Node version).
// FLAGPORT_CLI_RUNNER=tsx|bundle|dist forces one way (for debugging); FLAGPORT_CLI_CACHE=DIR keeps
// the bundle in DIR instead, a directory inside the checkout (the bundle imports packages from
// node_modules by name); tests use a fresh one to exercise the bundling.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as vm from "node:vm"

const root = fileURLToPath(new URL("..", import.meta.url))
const entry = join(root, "adapters/cli/Main.ts")
const dist = join(root, "dist/cli.js")
const forced = process.env.FLAGPORT_CLI_RUNNER

/** Paths, sizes and modification times of every source file: cheap, and changes with any edit. */
const fingerprint = () => {
  const hash = createHash("sha256")
  const walk = (dir) => {
    // Code-unit order: localeCompare would load ICU's collation first, tens of milliseconds of every start.
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.(ts|mts|js|mjs|json)$/.test(entry.name)) {
        const stat = statSync(path)
        hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`)
      }
    }
  }
  for (const dir of ["src", "adapters"]) walk(join(root, dir))
  for (const file of ["package.json", "package-lock.json"]) {
    const path = join(root, file)
    if (existsSync(path)) hash.update(`${path}\0${statSync(path).mtimeMs}\n`)
  }
  return hash.digest("hex").slice(0, 16)
}

const cacheDirectory = () => {
  const candidates = process.env.FLAGPORT_CLI_CACHE
    ? [process.env.FLAGPORT_CLI_CACHE]
    : [join(root, "node_modules/.cache/flagport"), join(tmpdir(), "flagport-cli-cache")]
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true })
      return dir
    } catch {
      // not writable: try the next place
    }
  }
  throw new Error("no writable cache directory for the CLI bundle")
}

/**
 * This checkout's bundles are named after it: checkouts sharing one node_modules (git worktrees
 * linking it) each keep their own bundle instead of removing each other's at every start.
 */
const checkoutId = createHash("sha256").update(root).digest("hex").slice(0, 8)

/** Builds (or reuses) the bundle of the sources and returns its path. */
const bundle = async () => {
  const dir = cacheDirectory()
  const output = join(dir, `cli-${checkoutId}-${fingerprint()}.cjs`)
  if (existsSync(output)) return output
  const esbuild = await import("esbuild")
  // Build beside the target and rename: concurrent starts never see a half-written bundle.
  const partial = `${output}.${process.pid}.tmp`
  try {
    const built = await esbuild.build({
      entryPoints: [entry],
      outfile: output,
      write: false,
      bundle: true,
      platform: "node",
      // CommonJS, for V8's code cache (node:vm compiles scripts with one, not ES modules, on Node 20).
      // Packages are still resolved as the sources import them (their ESM builds).
      format: "cjs",
      target: "node20",
      logLevel: "error",
      // Native addons and optional native helpers stay in node_modules.
      external: ["better-sqlite3", "@node-rs/*", "pg-native", "bufferutil", "utf-8-validate", "esbuild", "fsevents"],
      // The sources' `import.meta.url` is the bundle's own URL, as it was in an ESM bundle.
      define: { "import.meta.url": "__flagportImportMetaUrl" },
      banner: { js: "\"use strict\"; var __flagportImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" }
    })
    writeFileSync(partial, withImportsRewritten(built.outputFiles[0].text))
    renameSync(partial, output)
  } finally {
    rmSync(partial, { force: true })
    // Otherwise esbuild's `--service` child process lives as long as the server.
    await esbuild.stop()
  }
  // Older bundles of this checkout are dead weight, as is any other not rebuilt for a week (a removed
  // worktree's, or one named as before checkouts had theirs, most likely).
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (path === output || path === codeCacheOf(output) || !/^cli-[0-9a-f-]+\.(mjs|cjs|cjs\.code)$/.test(name)) continue
    if (name.startsWith(`cli-${checkoutId}-`) || (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < weekAgo) rmSync(path, { force: true })
  }
  return output
}

/**
 * On Node 20 a script compiled with a code cache loses its `import()`: V8 restores the script
 * without the options that tell Node which loader answers it ("A dynamic import callback was not
 * specified"). So the bundle's `import(` calls (a few: the docs viewer's and the dashboard builder's
 * files, node:http for the OTLP exporter) are renamed to a function the loader passes in, which
 * imports from here; their specifiers are absolute or bare, so resolve the same from bin/.
 * A name matching more than a call (a method called `import`, whose parentheses are followed by
 * a body) leaves the bundle as it is, marked as such, and it is loaded with `require`, without a
 * code cache. Comments and strings that mention `import(` are renamed too: harmless in comments, and
 * a string compiled later (`new Function`) finds the name on `globalThis`; the SQLite worker's body,
 * shipped as text to a thread of its own, imports nothing.
 */
const REWRITTEN = "/* flagport: import() rewritten */"
const withImportsRewritten = (text) => {
  const calls = /(?<![\w$.#])import(\s*)\(/g
  for (const match of text.matchAll(calls)) {
    // The matching parenthesis, then what follows it: `{` is a method's body.
    let depth = 0
    let i = match.index + match[0].length - 1
    for (; i < text.length; i++) {
      if (text[i] === "(") depth++
      else if (text[i] === ")" && --depth === 0) break
    }
    if (/^\s*\{/.test(text.slice(i + 1, i + 40))) return text
  }
  return `${REWRITTEN}${text.replace(calls, "__flagportImport$1(")}`
}

/** Where the bundle's V8 code cache is kept. */
const codeCacheOf = (bundlePath) => `${bundlePath}.code`

/**
 * Runs the CommonJS bundle as `require` would, compiled with its code cache when there is one
 * that V8 accepts; otherwise compiled from the text, and the cache written for the next start.
 */
const runBundle = (file) => {
  const codeFile = codeCacheOf(file)
  let cachedData
  try {
    cachedData = readFileSync(codeFile)
  } catch {
    // none yet
  }
  const source = readFileSync(file, "utf8")
  if (!source.startsWith(REWRITTEN)) return createRequire(import.meta.url)(file)
  // One line with the source's first, so positions in stack traces stay the bundle's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __flagportImport) {${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData })
  })
  const module = { exports: {}, id: file, filename: file, loaded: false }
  const importHere = (specifier, options) => import(specifier, options)
  // Also global: a renamed `import(` inside a string that a dependency compiles later (`new Function`)
  // runs outside the bundle's function and finds the name only there.
  globalThis.__flagportImport ??= importHere
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), importHere)
  module.loaded = true
  if (cachedData === undefined || script.cachedDataRejected) {
    // After the start's work has compiled what it runs (the cache holds every function compiled so
    // far), or at exit for a shorter command. Written beside the bundle, then renamed into place, so a
    // concurrent start never reads half a cache.
    let written = false
    const write = () => {
      if (written) return
      written = true
      const partial = `${codeFile}.${process.pid}.tmp`
      try {
        writeFileSync(partial, script.createCachedData())
        renameSync(partial, codeFile)
      } catch {
        rmSync(partial, { force: true })
      }
    }
    setTimeout(write, 2000).unref()
    process.once("exit", write)
  }
  return module.exports
}

const viaTsx = async () => {
  const { tsImport } = await import("tsx/esm/api")
  return tsImport(pathToFileURL(entry).href, import.meta.url)
}

const load = async () => {
  if (forced === "dist" || (forced === undefined && !existsSync(entry))) {
    if (!existsSync(dist)) throw new Error("dist/cli.js is missing: run `npm run build`")
    return import(pathToFileURL(dist).href)
  }
  if (forced === "tsx") return viaTsx()
  try {
    return runBundle(await bundle())
  } catch (error) {
    if (forced === "bundle") throw error
    if (process.env.FLAGPORT_DEBUG) process.stderr.write(`flagport: bundling failed, running the sources with tsx: ${error}\n`)
    return viaTsx()
  }
}

try {
  const cli = await load()
  cli.main(process.argv)
} catch (error) {
  process.stderr.write(`error: cannot start flagport: ${error && error.message ? error.message : String(error)}\n`)
  process.exit(1)
}
