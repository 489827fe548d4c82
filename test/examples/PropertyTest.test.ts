/**
 * examples/property-test.ts runs as a reader runs it (`node --import tsx`) and every one of its
 * properties holds. Like the other examples (examples.test.ts), it runs against the build:
 * `flagport` and `flagport/testing` resolve to dist/ (package self-reference), not to the sources
 * the root tsconfig maps for type-checking, so `npm run build` must have run.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"

describe("examples/property-test.ts", () => {
  it("runs against the built package, and checks each property", { timeout: 120_000 }, () => {
    if (!existsSync(join(ROOT, "dist", "testing.js"))) throw new Error("the example imports the built package: run npm run build first")
    const ran = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "examples/property-test.ts")], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, "test", "examples", "tsconfig.published.json") }
    })
    expect(ran.stderr).toBe("")
    expect(ran.status).toBe(0)
    expect(ran.stdout.trim().split("\n")).toEqual([
      "ok: every beta user gets the new checkout",
      "ok: the checkout does not depend on the country",
      "ok: any configuration: checkoutFor answers and never throws"
    ])
  })
})
