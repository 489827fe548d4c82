/**
 * docs/guide/coming-from-flagd.md stays true: its translation tables are the ones the code runs on, and
 * its walk-through, run as written (the file it shows, the commands it shows, in a fresh
 * directory on a fresh database), prints exactly what it shows.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { docsTables } from "../../src/domain/flagd/TranslationTable.js"
import { freshSqliteUrl, ROOT, runCli } from "../cli/Process.js"

const page = readFileSync(join(ROOT, "docs/guide/coming-from-flagd.md"), "utf8")

describe("docs/guide/coming-from-flagd.md", () => {
  it("shows the translation tables of src/domain/flagd/TranslationTable.ts", () => {
    const start = page.indexOf("-->\n", page.indexOf("<!-- generated from")) + 4
    const end = page.indexOf("\n<!-- end of generated tables -->")
    expect(page.slice(start, end)).toBe(docsTables())
  })

  it("its walk-through prints what it shows", { timeout: 120_000 }, async () => {
    const file = /```json\n([\s\S]*?)\n```/.exec(page)![1]!
    const dir = mkdtempSync(join(tmpdir(), "flagport-walk-"))
    writeFileSync(join(dir, "flags.flagd.json"), file)
    const env = { DATABASE_URL: freshSqliteUrl() }
    expect((await runCli(["seed"], env, dir)).code).toBe(0)
    const sessions = [...page.matchAll(/```\n\$ npx flagport (.*)\n([\s\S]*?)\n```/g)]
    expect(sessions.map((s) => s[1])).toEqual([
      "import flagd flags.flagd.json --environment production --dry-run",
      "import flagd flags.flagd.json --environment production --skip-unsupported"
    ])
    for (const [, command, shown] of sessions) {
      const result = await runCli(command!.split(" "), env, dir)
      expect(`${result.stdout}${result.stderr}`.trimEnd()).toBe(shown)
    }
  })
})
