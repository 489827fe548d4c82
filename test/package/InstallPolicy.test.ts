/**
 * `npm install` in a checkout is quiet on the oldest Node the README promises: no package of the
 * lock file (development ones included: `npm install` installs them) asks for a newer Node
 * (EBADENGINE), and every package with an install script has been decided on in package.json's
 * `allowScripts` (npm 11 warns about the ones that were not; `false` skips a script we do not need).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"

// semver is npm's own range logic (a dependency of many of ours); a small view of its API is enough here.
const semver = createRequire(import.meta.url)("semver") as {
  satisfies: (version: string, range: string) => boolean
  minVersion: (range: string) => { readonly version: string } | null
}

interface LockedPackage {
  readonly version?: string
  readonly engines?: { readonly node?: string } | ReadonlyArray<string>
  readonly hasInstallScript?: boolean
}

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  readonly engines: { readonly node: string }
  readonly allowScripts: Record<string, boolean>
}
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { readonly packages: Record<string, LockedPackage> }
const locked = Object.entries(lock.packages).filter(([path]) => path !== "")
const nameOf = (path: string): string => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)

describe("npm install on the oldest Node supported", () => {
  const oldest = semver.minVersion(manifest.engines.node)!.version

  it("finds no package that needs a newer Node", () => {
    expect(oldest).toBe("20.19.0")
    const tooNew = locked.flatMap(([path, entry]) => {
      const range = entry.engines !== undefined && !Array.isArray(entry.engines) ? (entry.engines as { node?: string }).node : undefined
      return range !== undefined && !semver.satisfies(oldest, range) ? [`${nameOf(path)}@${entry.version} needs node ${range}`] : []
    })
    expect(tooNew).toEqual([])
  })

  it("finds every install script decided on in allowScripts", () => {
    const undecided = locked
      .filter(([, entry]) => entry.hasInstallScript === true)
      .map(([path]) => nameOf(path))
      .filter((name) => typeof manifest.allowScripts[name] !== "boolean")
    expect([...new Set(undecided)]).toEqual([])
  })
})
