/**
 * A write made of several use cases' writes (a flags-as-code apply, a flagd import, and whatever
 * comes next) goes through the one helper, `Writes.spanning` (src/services/shared/Writes.ts): one
 * transaction, the project's write lock taken first. A use case that calls other use cases and
 * opens a transaction of its own would be a second way to do it, with its own idea of the lock.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const SERVICES = join(import.meta.dirname, "../../src/services")

const files = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [])

/** The use cases that write (through `Writes.writer`), as UseCases.ts names their modules (`feature/Name`). */
const writingUseCases = [...readFileSync(join(SERVICES, "UseCases.ts"), "utf8").matchAll(/from "\.\/([a-z]+\/[A-Za-z]+)\.js"/g)]
  .map((m) => m[1]!)
  .filter((module) => readFileSync(join(SERVICES, `${module}.ts`), "utf8").includes("Writes.writer"))

/** A service file's text with the helpers beside it that it imports (`./Helper.js`): what it calls. */
const withHelpers = (file: string): string => {
  const text = readFileSync(file, "utf8")
  const helpers = [...text.matchAll(/from "\.\/([A-Za-z]+)\.js"/g)].map((m) => join(file, "..", `${m[1]!}.ts`))
  return [text, ...helpers.map((helper) => readFileSync(helper, "utf8"))].join("\n")
}

describe("writes of several use cases", () => {
  it("are made with Writes.spanning, never a transaction a use case opens around other use cases", () => {
    expect(writingUseCases.length).toBeGreaterThan(10)
    const offenders = files(SERVICES).flatMap((file) => {
      const name = relative(SERVICES, file).replace(/\.ts$/, "")
      const calls = withHelpers(file)
      const callsOthers = writingUseCases.some((module) => module !== name && calls.includes(`from "../${module}.js"`))
      return callsOthers && /\.withTransaction\(/.test(readFileSync(file, "utf8")) ? [name] : []
    })
    expect(offenders).toEqual([])
  })

  it("the apply and the flagd import use it", () => {
    for (const file of ["ascode/FlagsAsCode.ts", "flagd/FlagdImport.ts"]) {
      expect(readFileSync(join(SERVICES, file), "utf8"), file).toMatch(/writes\.spanning\(/)
    }
  })
})
