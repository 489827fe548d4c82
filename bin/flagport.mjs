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
// FLAGPORT_CLI_RUNNER=tsx|bundle|dist forces one way (for debugging); FLAGPORT_CLI_CACHE=DIR keeps
// the bundle in DIR instead, a directory inside the checkout (the bundle imports packages from
// node_modules by name); tests use a fresh one to exercise the bundling.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

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
  const output = join(dir, `cli-${checkoutId}-${fingerprint()}.mjs`)
  if (existsSync(output)) return output
  const esbuild = await import("esbuild")
  // Build beside the target and rename: concurrent starts never see a half-written bundle.
  const partial = `${output}.${process.pid}.tmp`
  try {
    await esbuild.build({
      entryPoints: [entry],
      outfile: partial,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "error",
      // Native addons and optional native helpers stay in node_modules.
      external: ["better-sqlite3", "@node-rs/*", "pg-native", "bufferutil", "utf-8-validate", "esbuild", "fsevents"],
      // Bundled CommonJS packages call require(); give the ESM bundle one.
      banner: { js: "import { createRequire as __flagportCreateRequire } from 'node:module'; const require = __flagportCreateRequire(import.meta.url);" }
    })
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
    if (path === output || !/^cli-[0-9a-f-]+\.mjs$/.test(name)) continue
    if (name.startsWith(`cli-${checkoutId}-`) || (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < weekAgo) rmSync(path, { force: true })
  }
  return output
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
    return await import(pathToFileURL(await bundle()).href)
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
