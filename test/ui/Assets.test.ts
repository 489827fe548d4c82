/**
 * Where the dashboard's files come from: built in memory from ui/ in a checkout, read from
 * dist/ui in an installed package (no ui/ sources), and a clear error when neither is there.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { gzipSync } from "node:zlib"
import { afterAll, describe, expect, it } from "vitest"
import { loadAssets, packageRoot } from "../../adapters/http/serving/DashboardAssets.js"

const installed = mkdtempSync(join(tmpdir(), "flagport-assets-"))
afterAll(() => rmSync(installed, { recursive: true, force: true }))

describe("dashboard assets", () => {
  it("are built from the ui/ sources in a checkout", async () => {
    const root = packageRoot()
    expect(root).toBeDefined()
    const files = await loadAssets(root)
    expect([...files.keys()].sort()).toEqual(["app.css", "app.js", "index.html"])
    expect(new TextDecoder().decode(files.get("index.html"))).toContain('src="app.js"')
  })

  it("are read from dist/ui in an installed package, found from any folder inside it", async () => {
    writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "flagport" }))
    mkdirSync(join(installed, "dist", "ui"), { recursive: true })
    expect(packageRoot(join(installed, "dist"))).toBe(installed)
    await expect(loadAssets(installed)).rejects.toThrow("dist/ui is missing: run `npm run build`")
    writeFileSync(join(installed, "dist", "ui", "index.html"), "<!doctype html>")
    writeFileSync(join(installed, "dist", "ui", "app.js"), "export {}")
    const files = await loadAssets(installed)
    expect(new TextDecoder().decode(files.get("app.js"))).toBe("export {}")
  })

  it("weigh at most 120 KB of JavaScript and CSS gzipped (the budget of bench/dashboard-size.bench.mjs)", async () => {
    const files = await loadAssets(packageRoot())
    const gzipped = ["app.js", "app.css"].reduce((sum, name) => sum + gzipSync(files.get(name)!, { level: 9 }).length, 0)
    process.stdout.write(`dashboard: JS + CSS ${(gzipped / 1024).toFixed(1)} KB gzipped of 120 KB\n`)
    expect(gzipped).toBeGreaterThan(10 * 1024) // the real bundle, not an empty build
    expect(gzipped).toBeLessThanOrEqual(120 * 1024)
  })

  it("bundle the domain's pure tables and rules, and nothing of Effect: only Preact and signals come from packages", async () => {
    const builder = pathToFileURL(join(packageRoot()!, "ui", "build.mjs")).href
    const { dashboardInputs } = (await import(builder)) as { dashboardInputs: () => Promise<ReadonlyArray<string>> }
    const inputs = await dashboardInputs()
    const shared = inputs.filter((path) => path.startsWith("src/")).sort()
    // The tables and rules the dashboard shares with the server (each pure, with no Effect import).
    expect(shared).toEqual(
      expect.arrayContaining([
        "src/domain/auth/Permissions.ts",
        "src/domain/changes/ChangeRequestRuleTable.ts",
        "src/domain/changes/ProtectionRule.ts",
        "src/domain/conditions/OperatorTable.ts",
        "src/domain/people/Grants.ts",
        "src/domain/people/PasswordRule.ts"
      ])
    )
    const packages = [...new Set(inputs.flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []))].sort()
    expect(packages).toEqual(["@preact/signals", "@preact/signals-core", "preact"])
  })

  it("find no package root outside a flagport package", () => {
    expect(packageRoot("/")).toBeUndefined()
  })
})
