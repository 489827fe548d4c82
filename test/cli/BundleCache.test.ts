/**
 * The bundle `bin/flagport.mjs` builds of a checkout's sources is named after the checkout: git
 * worktrees that share one node_modules (so one cache directory) keep a bundle each, where they
 * used to remove each other's at every start (and each start then bundled again, seconds).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BIN, childEnv, ROOT } from "./Process.js"

const scratch: Array<string> = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the CLI bundle cache", () => {
  it("keeps another checkout's bundle, removes this checkout's older ones and any other a week old", { timeout: 180_000 }, () => {
    mkdirSync(join(ROOT, ".tmp"), { recursive: true })
    const cache = mkdtempSync(join(ROOT, ".tmp", "cli-cache-"))
    scratch.push(cache)
    const other = "cli-00000000-0123456789abcdef.mjs"
    const otherOld = "cli-11111111-0123456789abcdef.mjs"
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
    const ours = readdirSync(cache).filter((name) => name !== other && name !== legacyRecent)
    expect(ours).toHaveLength(1)
    expect(ours[0]).toMatch(/^cli-[0-9a-f]{8}-[0-9a-f]{16}\.mjs$/)
    expect(readdirSync(cache).sort()).toEqual([other, legacyRecent, ours[0]!].sort())

    // A start after a source edit bundles again and removes this checkout's older bundle; the other checkout's stays.
    const stale = ours[0]!.replace(/-[0-9a-f]{16}\.mjs$/, "-fedcba9876543210.mjs")
    rmSync(join(cache, ours[0]!))
    writeFileSync(join(cache, stale), "export const main = () => {}\n")
    expect(run().trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(readdirSync(cache).sort()).toEqual([other, legacyRecent, ours[0]!].sort())
  })
})
