/**
 * The bundle `bin/flagport.mjs` builds of a checkout's sources is named after the checkout: git
 * worktrees that share one node_modules (so one cache directory) keep a bundle each, where they
 * used to remove each other's at every start (and each start then bundled again, seconds).
 * Beside it, V8's code cache of the bundle (`.code`), which a later start compiles it with; a
 * bundle so compiled still runs its dynamic imports (Node 20 loses them with a code cache unless
 * the loader rewrites them: bin/flagport.mjs).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, childEnv, freshSqliteUrl, ROOT, startServer, stopServer } from "./Process.js"

const scratch: Array<string> = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the CLI bundle cache", () => {
  it("keeps another checkout's bundle, removes this checkout's older ones and any other a week old", { timeout: 180_000 }, () => {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true })
    const cache = mkdtempSync(join(ROOT, ".tmp", "cli-cache-"))
    scratch.push(cache)
    const other = "cli-00000000-0123456789abcdef.cjs"
    const otherOld = "cli-11111111-0123456789abcdef.cjs"
    const legacy = "cli-0123456789abcdef.mjs"
    for (const name of [other, otherOld, legacy]) writeFileSync(join(cache, name), "export const main = () => {}\n")
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000)
    utimesSync(join(cache, otherOld), eightDaysAgo, eightDaysAgo)
    utimesSync(join(cache, legacy), eightDaysAgo, eightDaysAgo)
    // One named as before checkouts had theirs, recent: another checkout's still running the older bin.
    const legacyRecent = "cli-fedcba9876543210.mjs"
    writeFileSync(join(cache, legacyRecent), "export const main = () => {}\n")

    const run = () =>
      execFileSync(process.execPath, [BIN, "--version"], { cwd: ROOT, env: childEnv({ FLAGPORT_CLI_CACHE: cache, FLAGPORT_CLI_RUNNER: "bundle" }), encoding: "utf8" })
    expect(run().trim()).toMatch(/^\d+\.\d+\.\d+/)
    // The bundle, and its code cache written as the command exited.
    const ours = readdirSync(cache).filter((name) => name !== other && name !== legacyRecent).sort()
    expect(ours).toHaveLength(2)
    expect(ours[0]).toMatch(/^cli-[0-9a-f]{8}-[0-9a-f]{16}\.cjs$/)
    expect(ours[1]).toBe(`${ours[0]}.code`)
    expect(readdirSync(cache).sort()).toEqual([other, legacyRecent, ...ours].sort())

    // A start with the code cache accepts it: it leaves the cache as it was.
    const written = statSync(join(cache, ours[1]!)).mtimeMs
    expect(run().trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(statSync(join(cache, ours[1]!)).mtimeMs).toBe(written)

    // A start after a source edit bundles again and removes this checkout's older bundle and its
    // code cache (and an ESM bundle of an older bin's); the other checkout's stays.
    const stale = ours[0]!.replace(/-[0-9a-f]{16}\.cjs$/, "-fedcba9876543210.cjs")
    const staleEsm = ours[0]!.replace(/-[0-9a-f]{16}\.cjs$/, "-0000000000000000.mjs")
    for (const name of ours) rmSync(join(cache, name))
    writeFileSync(join(cache, stale), "exports.main = () => {}\n")
    writeFileSync(join(cache, `${stale}.code`), "")
    writeFileSync(join(cache, staleEsm), "export const main = () => {}\n")
    expect(run().trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(readdirSync(cache).sort()).toEqual([other, legacyRecent, ...ours].sort())
  })

  it("serves the docs viewer and the dashboard (dynamic imports) from a bundle compiled with its code cache", { timeout: 180_000 }, async () => {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true })
    const cache = mkdtempSync(join(ROOT, ".tmp", "cli-cache-"))
    scratch.push(cache)
    const env = { FLAGPORT_CLI_CACHE: cache, FLAGPORT_CLI_RUNNER: "bundle", DATABASE_URL: freshSqliteUrl() }
    // The first start bundles and writes the code cache; the second compiles the bundle with it.
    expect(execFileSync(process.execPath, [BIN, "--version"], { cwd: ROOT, env: childEnv(env), encoding: "utf8" }).trim()).toMatch(/^\d+\.\d+\.\d+/)
    const code = readdirSync(cache).find((name) => name.endsWith(".cjs.code"))
    expect(code).toBeDefined()
    const written = statSync(join(cache, code!)).mtimeMs
    const server = await startServer(["serve", "--init"], env)
    try {
      const docs = await fetch(`${server.baseUrl}/docs`)
      expect(docs.status).toBe(200)
      expect(await docs.text()).toContain("<html")
      const dashboard = await fetch(`${server.baseUrl}/ui/`)
      expect(dashboard.status).toBe(200)
      expect(await dashboard.text()).toContain('<div id="app">')
    } finally {
      expect(await stopServer(server)).toBe(0)
    }
    // The cache was accepted, not written again.
    expect(statSync(join(cache, code!)).mtimeMs).toBe(written)
    expect(readFileSync(join(cache, code!.replace(/\.code$/, "")), "utf8")).toMatch(/^\/\* flagport: import\(\) rewritten \*\//)
  })
})
