import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * Small files, one concept each: no hand-written source, test or benchmark is over 400 lines, so
 * a file is read at a glance and a growing one is split by concern rather than left to sprawl.
 * Generated files are exempt (they are read through their generator, not by hand).
 */
const ROOT = join(import.meta.dirname, "../..")
const MAX_LINES = 400
/** Written by a script (`npm run api-types`), checked against it by test/ui/ApiTypes.test.ts. */
const GENERATED = new Set(["ui/lib/api-types.ts"])

const tracked = (): ReadonlyArray<string> =>
  execFileSync("git", ["ls-files", "*.ts", "*.tsx", "*.js", "*.mjs"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((file) => file !== "" && !GENERATED.has(file))

describe("file size", () => {
  it(`keeps every hand-written source, test and benchmark under ${MAX_LINES} lines`, () => {
    const long = tracked()
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
    expect(long).toEqual([])
  })

  it("exempts only files that exist and are generated", () => {
    for (const file of GENERATED) expect(readFileSync(join(ROOT, file), "utf8")).toMatch(/generated|do not (edit|make direct changes)/i)
  })
})
