import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import * as Context from "effect/Context"
import { describe, expect, it } from "vitest"
import * as Flagport from "../../src/index.js"

/**
 * The shape of src/services a newcomer relies on: one folder per feature (as in src/domain), none
 * too big to read at a glance, and every use case reachable by an Effect host from the package's
 * root entry.
 */
const SERVICES = join(import.meta.dirname, "../../src/services")
const MAX_FILES = 12

const folders = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? [path, ...folders(path)] : []
  })

const filesIn = (dir: string) => readdirSync(dir).filter((name) => statSync(join(dir, name)).isFile())

const sources = (dir: string): ReadonlyArray<string> => [...filesIn(dir).map((name) => join(dir, name)), ...folders(dir).flatMap((f) => filesIn(f).map((name) => join(f, name)))]

describe("src/services", () => {
  it("keeps each use case in its feature's folder: the root holds only the layer that builds them all", () => {
    expect(filesIn(SERVICES)).toEqual(["UseCases.ts"])
  })

  it(`has no folder of more than ${MAX_FILES} files`, () => {
    const crowded = folders(SERVICES)
      .map((dir) => ({ folder: relative(SERVICES, dir), files: filesIn(dir).length }))
      .filter(({ files }) => files > MAX_FILES)
    expect(crowded).toEqual([])
  })

  it("exports every use case's tag from the root entry (src/index.ts), for Effect hosts", () => {
    const declared = sources(SERVICES).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/Context\.Tag\("(@flagport\/services\/[A-Za-z]+)"\)/g)].map((m) => m[1]!)
    )
    const exported = new Set(
      Object.values(Flagport).flatMap((namespace) => Object.values(namespace as Record<string, unknown>).filter(Context.isTag).map((tag) => tag.key))
    )
    expect(declared.length).toBeGreaterThanOrEqual(22)
    expect(declared.filter((key) => !exported.has(key))).toEqual([])
  })
})
