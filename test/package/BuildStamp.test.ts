/**
 * `npm pack` and `npm test` build unless dist/ was built from the sources as they are (the examples
 * and package tests import the build, so the README's `npm install && npm test` on a fresh clone
 * must build it first; .ci/run runs exactly that): their prepack and pretest ask
 * scripts/build-stamp.mjs, which compares a hash of the build's inputs with the stamp the last
 * `npm run build` wrote. Checked in a copy of the checkout, without running a build: no dist/ means
 * a build; a stamp of these sources means none; any change to a source means a build again.
 * (Installed.test.ts packs with a current dist/; a full pack from a fresh clone builds for minutes.)
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"
import { copyOfCheckout, run, runNode, scratchDirectory } from "./PackedPackage.js"

let scratch: string
let copy: string

beforeAll(() => {
  scratch = scratchDirectory()
  copy = copyOfCheckout(scratch, { withDist: false })
})

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const stamp = (command: "check" | "write") => runNode(copy, ["scripts/build-stamp.mjs", command])
const scripts = (): Record<string, string> => (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts

describe("npm pack's prepack", () => {
  it("runs the check, and the build when the check fails; the build writes the stamp last", () => {
    expect(scripts().prepack).toBe("node scripts/build-stamp.mjs check || npm run build")
    expect(scripts().build).toMatch(/&& node scripts\/build-stamp\.mjs write$/)
  })

  it("builds with no dist/, not after a build of these sources, and again once a source changed", async () => {
    const missing = await stamp("check")
    expect(missing.code).toBe(1)
    expect(missing.output).toContain("dist/ is missing or older than the sources: building")

    mkdirSync(join(copy, "dist"))
    expect((await stamp("write")).code).toBe(0)
    const current = await stamp("check")
    expect(current.code).toBe(0)
    expect(current.output).toContain("dist/ was built from these sources: using it as it is")

    appendFileSync(join(copy, "src/index.ts"), "\n")
    expect((await stamp("check")).code).toBe(1)
  })
})

describe("npm test's pretest", () => {
  it("is the same check-or-build, so a fresh clone's npm test has the build its examples import", () => {
    expect(scripts().pretest).toBe("node scripts/build-stamp.mjs check || npm run build")
  })

  it("leaves a current build alone: npm run pretest in a checkout built from its sources builds nothing", async () => {
    mkdirSync(join(copy, "dist"), { recursive: true })
    expect((await stamp("write")).code).toBe(0)
    const pretest = await run("npm", ["run", "pretest"], copy)
    expect(pretest.code).toBe(0)
    expect(pretest.output).toContain("dist/ was built from these sources: using it as it is")
    expect(pretest.output).not.toContain("tsup")
  })
})
