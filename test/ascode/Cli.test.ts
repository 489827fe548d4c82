/**
 * `flagport export` and `flagport apply` through the real binary: the exit codes a CI job reads
 * (0 nothing to do or applied, 2 changes under --dry-run --detailed-exitcode, 1 an error, and a
 * command line it cannot parse is 1 there, not 2), every problem of a bad file on its own line,
 * the plan on stdout, export to a file, and the same through a running server (--url/--key).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as YAML from "yaml"
import { freshSqliteUrl, runCli } from "../cli/Process.js"
import { request } from "../http/fixtures.js"
import { serverForSuite } from "../http/serverForSuite.js"
import { richFile } from "./RichProject.js"

const DIR = mkdtempSync(join(tmpdir(), "flagport-ascode-"))
const file = (name: string, content: unknown) => {
  const path = join(DIR, name)
  writeFileSync(path, typeof content === "string" ? content : YAML.stringify(content))
  return path
}

describe("flagport apply and export (the binary)", () => {
  const databaseUrl = freshSqliteUrl()
  const env = { DATABASE_URL: databaseUrl }

  it("exit codes: 2 while the plan has changes, 0 once applied and when nothing is left to do", { timeout: 120_000 }, async () => {
    // apply changes an existing database (docs/guide/cli.md): begin one.
    expect((await runCli(["migrate"], env)).code).toBe(0)
    const rich = file("rich.yaml", richFile())
    const planned = await runCli(["apply", rich, "--dry-run", "--detailed-exitcode"], env)
    expect(planned.code, planned.stderr).toBe(2)
    expect(planned.stdout).toMatch(/^Project rich: 10 to create, 6 to change, 0 to delete\./)
    expect(planned.stdout).toContain("+ flag checkout")
    const dry = await runCli(["apply", rich, "--dry-run"], env)
    expect(dry.code).toBe(0)
    const applied = await runCli(["apply", rich], env)
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stderr).toContain("Applied 16 changes to project rich.")
    const again = await runCli(["apply", rich, "--dry-run", "--detailed-exitcode"], env)
    expect(again.code).toBe(0)
    expect(again.stdout).toBe("Project rich: no changes; it is as the file says.\n")

    const out = join(DIR, "exported.yaml")
    expect((await runCli(["export", "--project", "rich", "--out", out], env)).code).toBe(0)
    const exported = readFileSync(out, "utf8")
    const changed = file("changed.yaml", exported.replace("name: Beta testers", "name: Beta group"))
    const diff = await runCli(["apply", changed, "--dry-run", "--detailed-exitcode"], env)
    expect(diff.code).toBe(2)
    expect(diff.stdout).toContain("~ segment beta")
    expect(diff.stdout).toContain("    - name: Beta testers\n    + name: Beta group")
  })

  it("--plan applies only the plan whose fingerprint was printed; a moved project is refused, nothing applied", { timeout: 120_000 }, async () => {
    const own = { DATABASE_URL: freshSqliteUrl() }
    expect((await runCli(["migrate"], own)).code).toBe(0)
    const rich = file("fingerprint.yaml", richFile("printed"))
    const dry = await runCli(["apply", rich, "--dry-run"], own)
    const fingerprint = /\nPlan ([0-9a-f]{16}): apply --plan \1 applies this plan and nothing else\.\n$/.exec(dry.stdout)?.[1]
    expect(fingerprint, dry.stdout).toBeDefined()
    const other = "0123456789abcdef"
    const refused = await runCli(["apply", rich, "--plan", other], own)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`changed since plan ${other} was shown (its plan is now ${fingerprint})`)
    expect((await runCli(["apply", rich, "--dry-run", "--detailed-exitcode"], own)).code).toBe(2)
    expect((await runCli(["apply", rich, "--plan", "nope"], own)).code).toBe(2)
    const applied = await runCli(["apply", rich, "--plan", fingerprint!], own)
    expect(applied.code, applied.stderr).toBe(0)
    const [, create, change] = /^Project printed: (\d+) to create, (\d+) to change, 0 to delete\./.exec(dry.stdout) ?? []
    expect(applied.stderr).toContain(`Applied ${Number(create) + Number(change)} changes to project printed.`)
  })

  it("a bad file: every problem on its own line with its path, exit 1, nothing applied", { timeout: 60_000 }, async () => {
    const bad = structuredClone(richFile("broken")) as unknown as { flags: Array<{ environments: Array<{ rules?: Array<{ conditions: Array<{ operator: string }> }>; offVariationKey: string }> }>; segments: Array<{ name: string }> }
    bad.flags[0]!.environments[0]!.rules![1]!.conditions[0]!.operator = "equals"
    bad.flags[1]!.environments[0]!.offVariationKey = "gone"
    bad.segments[1]!.name = ""
    const result = await runCli(["apply", file("bad.yaml", bad)], env)
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split("\n")).toEqual([
      "error: Invalid project file: nothing was applied",
      `  flags[0].environments[0].rules[1].conditions[0].operator: unknown operator "equals"`,
      `  flags[1].environments[0].offVariationKey: unknown variation "gone"`,
      "  segments[1].name: must be a string of 1 to 120 characters"
    ])
    expect((await runCli(["export", "--project", "broken"], env)).code).toBe(1)
    const notYaml = await runCli(["apply", file("syntax.yaml", "flags: [\n")], env)
    expect(notYaml.code).toBe(1)
    expect(notYaml.stderr).toContain("line 2, column 1")
    // A command line that cannot be parsed is 1 under --detailed-exitcode (2 would read as "changes").
    expect((await runCli(["apply", "x.yaml", "--dry-run", "--detailed-exitcode", "--frobnicate"], env)).code).toBe(1)
    expect((await runCli(["apply", "x.yaml", "--frobnicate"], env)).code).toBe(2)
  })
})

describe("flagport apply and export --url (through a running server)", () => {
  const t = serverForSuite()

  it("plans, applies and exports as the server answers; refusals exit 1 with the server's problems", { timeout: 120_000 }, async () => {
    const rich = file("remote.yaml", richFile())
    const server = ["--url", t.url, "--key", t.keys.global]
    const planned = await runCli(["apply", rich, "--dry-run", "--detailed-exitcode", ...server])
    expect(planned.code, planned.stderr).toBe(2)
    const moved = await runCli(["apply", rich, "--plan", "0123456789abcdef", ...server])
    expect(moved.code).toBe(1)
    expect(moved.stderr).toContain("changed since plan 0123456789abcdef was shown")
    const fingerprint = /\nPlan ([0-9a-f]{16}):/.exec(planned.stdout)?.[1]
    const applied = await runCli(["apply", rich, "--json", "--plan", fingerprint ?? "(none printed)", ...server])
    expect(applied.code, applied.stderr).toBe(0)
    expect(JSON.parse(applied.stdout)).toMatchObject({ applied: true, projectId: "rich" })
    const exported = await runCli(["export", "--project", "rich", "--format", "json", ...server])
    expect(exported.code).toBe(0)
    expect(exported.stdout).toBe((await request(t.url, "GET", "/v1/projects/rich/export?format=json", { key: t.keys.global })).text)
    const refused = await runCli(["apply", rich, "--url", t.url, "--key", t.keys.client])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("A server API key is required for management endpoints.")
    const bad = structuredClone(richFile()) as unknown as { segments: Array<{ name: string }> }
    bad.segments[0]!.name = ""
    const invalid = await runCli(["apply", file("remote-bad.yaml", bad), ...server])
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toContain("  segments[0].name: must be a string of 1 to 120 characters")
  })
})
