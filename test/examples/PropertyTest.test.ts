/**
 * examples/property-test.ts runs as a reader runs it (`node --import tsx`, which resolves
 * `flagport` and `flagport/testing` to the sources through tsconfig.json's paths) and every one of
 * its properties holds.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"

describe("examples/property-test.ts", () => {
  it("runs, and checks each property", { timeout: 120_000 }, () => {
    const ran = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "examples/property-test.ts")], { cwd: ROOT, encoding: "utf8" })
    expect(ran.stderr).toBe("")
    expect(ran.status).toBe(0)
    expect(ran.stdout.trim().split("\n")).toEqual([
      "ok: every beta user gets the new checkout",
      "ok: the checkout does not depend on the country",
      "ok: any configuration: checkoutFor answers and never throws"
    ])
  })
})
