/**
 * docs/guide/cli.md shows what `flagport migrate` prints on an empty database: it must list every
 * migration in adapters/sql/migrations, in order, and count them right.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../cli/Process.js"

describe("docs/guide/cli.md", () => {
  it("lists every migration in its migrate example", () => {
    const migrations = readdirSync(join(ROOT, "adapters/sql/migrations"))
      .filter((name) => /^\d{4}_.+\.ts$/.test(name))
      .map((name) => name.replace(/\.ts$/, ""))
      .sort()
    const docs = readFileSync(join(ROOT, "docs/guide/cli.md"), "utf8")
    const applied = [...docs.matchAll(/^applied (\S+)$/gm)].map((match) => match[1])
    expect(migrations.length).toBeGreaterThan(0)
    expect(applied).toEqual(migrations)
    expect(docs).toContain(`${migrations.length} migration(s) applied.`)
  })
})
