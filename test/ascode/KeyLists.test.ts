/**
 * A segment's key lists in flags as code, through the real binary (docs/guide/flags-as-code.md,
 * "Key lists"): apply reads each list's file beside the project file and replaces only the lists
 * that differ; export --out writes each non-empty list beside the file; every list file is checked
 * before anything is written (a missing file, a bad line, more keys than a list holds); a file the
 * rest of which is refused changes no list; the same through a running server (--url), whose own
 * apply refuses a file naming list files; and export, apply elsewhere, export again gives the same
 * bytes.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { freshSqliteUrl, runCli } from "../cli/Process.js"
import { request } from "../http/fixtures.js"
import { serverForSuite } from "../http/serverForSuite.js"

const ROOT = mkdtempSync(join(tmpdir(), "flagport-keylists-"))

/** A folder with the project file and its list files. */
const folder = (name: string, files: Record<string, string>) => {
  const dir = join(ROOT, name)
  mkdirSync(dir, { recursive: true })
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

const projectYaml = (id: string, extra = "") => `project:
  id: ${id}
environments:
  - key: staging
    name: Staging
segments:
  - key: beta
    name: Beta
    conditions: []
    keys: ./beta.txt
  - key: staff
    name: Staff
    conditions: []
    keys:
      included: ./staff-in.csv
      excluded: ./staff-out.txt
${extra}`

const betaKeys = Array.from({ length: 2_500 }, (_, i) => `user-${String(i).padStart(5, "0")}`)
const lines = (keys: ReadonlyArray<string>) => keys.map((k) => `${k}\n`).join("")

/** The stored list, as the keys route streams it back (one a line, in the list's order). */
const storedList = async (t: { url: string; key: string }, project: string, segment: string, list: string) => {
  const answer = await request(t.url, "GET", `/v1/projects/${project}/segments/${segment}/keys/${list}`, { key: t.key })
  expect(answer.status, answer.text).toBe(200)
  return answer.text.split("\n").filter((k) => k !== "")
}

describe("key lists in flags as code, against the database (DATABASE_URL)", () => {
  const databaseUrl = freshSqliteUrl()
  const env = { DATABASE_URL: databaseUrl }

  it("apply replaces the lists that differ, then nothing; export --out writes them beside the file; a round trip keeps the bytes", { timeout: 180_000 }, async () => {
    expect((await runCli(["migrate"], env)).code).toBe(0)
    const dir = folder("local", {
      "flagport.yaml": projectYaml("lists"),
      // Duplicates and a CRLF count once; a CSV's key column is found by its header.
      "beta.txt": `${lines(betaKeys)}user-00001\r\n\n`,
      "staff-in.csv": "name,key\nAnn,ann@example.com\nBob,bob@example.com\n",
      "staff-out.txt": "intern@example.com\n"
    })
    const file = join(dir, "flagport.yaml")
    const planned = await runCli(["apply", file, "--dry-run", "--detailed-exitcode"], env)
    expect(planned.code, planned.stderr).toBe(2)
    expect(planned.stdout).toContain("Key lists: 3 to replace (after the rest is applied).")
    expect(planned.stdout).toContain("+ included keys of segment beta: 2,500 distinct keys from ./beta.txt (0 keys now)")
    expect(planned.stdout).toContain("+ included keys of segment staff: 2 distinct keys from ./staff-in.csv (0 keys now)")

    const applied = await runCli(["apply", file], env)
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stderr).toContain("Replaced the included keys of segment beta: 2,500 keys (list version 1).")
    expect(applied.stderr).toContain("Replaced the excluded keys of segment staff: 1 key (list version 1).")
    const again = await runCli(["apply", file, "--dry-run", "--detailed-exitcode"], env)
    expect(again.code, again.stdout).toBe(0)
    expect(again.stdout).toBe("Project lists: no changes; it is as the file says.\n")

    // One key changed: that list only, by its digest (the count is the same).
    writeFileSync(join(dir, "beta.txt"), lines([...betaKeys.slice(1), "user-99999"]))
    const changed = await runCli(["apply", file, "--json"], env)
    expect(changed.code, changed.stderr).toBe(0)
    expect(JSON.parse(changed.stdout).keyLists).toEqual([{ segment: "beta", list: "included", file: "./beta.txt", before: 2_500, after: 2_500 }])
    expect(changed.stderr).toContain("Replaced the included keys of segment beta: 2,500 keys (list version 2).")
    // A segment's keys naming the included list only: its excluded list is to be empty.
    writeFileSync(file, projectYaml("lists").replace("      included: ./staff-in.csv\n      excluded: ./staff-out.txt", "      included: ./staff-in.csv"))
    const emptied = await runCli(["apply", file], env)
    expect(emptied.code, emptied.stderr).toBe(0)
    expect(emptied.stdout).toContain("- excluded keys of segment staff: to be emptied (the segment's keys name no file for it) (1 key now)")

    const out = join(ROOT, "exported")
    mkdirSync(out)
    const exported = await runCli(["export", "--project", "lists", "--out", join(out, "flagport.yaml")], env)
    expect(exported.code, exported.stderr).toBe(0)
    expect(readdirSync(out).sort()).toEqual(["beta.included.txt", "flagport.yaml", "staff.included.txt"])
    const text = readFileSync(join(out, "flagport.yaml"), "utf8")
    expect(text).toContain("    keys: ./beta.included.txt\n")
    expect(readFileSync(join(out, "beta.included.txt"), "utf8")).toBe(lines([...betaKeys.slice(1), "user-99999"].sort()))
    expect(readFileSync(join(out, "staff.included.txt"), "utf8")).toBe("ann@example.com\nbob@example.com\n")
    // Without --out the lists are left out, and said so.
    const stdout = await runCli(["export", "--project", "lists"], env)
    expect(stdout.code).toBe(0)
    expect(stdout.stdout).not.toContain("keys:")
    expect(stdout.stderr).toContain("the key lists of segment(s) beta, staff are not in this output")

    // Round trip: the exported folder applied to another database exports the same bytes.
    const elsewhere = { DATABASE_URL: freshSqliteUrl() }
    expect((await runCli(["migrate"], elsewhere)).code).toBe(0)
    expect((await runCli(["apply", join(out, "flagport.yaml")], elsewhere)).code).toBe(0)
    const back = join(ROOT, "back")
    mkdirSync(back)
    expect((await runCli(["export", "--project", "lists", "--out", join(back, "flagport.yaml")], elsewhere)).code).toBe(0)
    for (const name of readdirSync(out)) expect(readFileSync(join(back, name), "utf8"), name).toBe(readFileSync(join(out, name), "utf8"))
    expect((await runCli(["apply", join(back, "flagport.yaml"), "--dry-run", "--detailed-exitcode"], env)).code).toBe(0)
  })

  it("every list file is checked before anything is written: a missing file, a bad line, too many keys; a refused file changes no list", { timeout: 180_000 }, async () => {
    const own = { DATABASE_URL: freshSqliteUrl() }
    expect((await runCli(["migrate"], own)).code).toBe(0)
    const good = folder("checked", { "flagport.yaml": projectYaml("checked"), "beta.txt": "a\nb\n", "staff-in.csv": "key\nann\n", "staff-out.txt": "bob\n" })
    expect((await runCli(["apply", join(good, "flagport.yaml")], own)).code).toBe(0)

    const tooMany = `key\n${Array.from({ length: 1_000_001 }, (_, i) => `k${i}\n`).join("")}`
    const bad = folder("bad", { "flagport.yaml": projectYaml("checked"), "beta.txt": "fine\nbad\rkey\n", "staff-in.csv": tooMany })
    const refused = await runCli(["apply", join(bad, "flagport.yaml")], own)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("error: Invalid project file: nothing was applied")
    expect(refused.stderr).toContain("  segments[0].keys.included: ./beta.txt: line 2: the key must not contain a line break")
    expect(refused.stderr).toContain("  segments[1].keys.included: ./staff-in.csv: line 1000002: a list must have at most 1,000,000 keys")
    expect(refused.stderr).toContain("  segments[1].keys.excluded: ./staff-out.txt: no such file")

    // A list file lies in the project file's folder: no absolute path, no way out by `..` or a link.
    const secret = folder("secrets", { "credentials": "aws_secret_access_key=abc\n" })
    const escaping = folder("escaping", { "flagport.yaml": projectYaml("checked"), "staff-out.txt": "bob\n" })
    writeFileSync(join(escaping, "flagport.yaml"), projectYaml("checked").replace("./beta.txt", "../secrets/credentials").replace("./staff-in.csv", join(secret, "credentials")).replace("./staff-out.txt", "./linked.txt"))
    symlinkSync(join(secret, "credentials"), join(escaping, "linked.txt"))
    const outside = await runCli(["apply", join(escaping, "flagport.yaml")], own)
    expect(outside.code).toBe(1)
    expect(outside.stderr).toContain("  segments[0].keys.included: ../secrets/credentials: must lie inside the project file's folder")
    expect(outside.stderr).toContain(`  segments[1].keys.included: ${join(secret, "credentials")}: must be a path relative to the project file's folder, not an absolute one`)
    expect(outside.stderr).toContain("  segments[1].keys.excluded: ./linked.txt: must lie inside the project file's folder (it links outside it)")
    expect(outside.stderr).not.toContain("aws_secret")

    // The lists are fine but the rest of the file is not: refused whole, every problem together, no list changed.
    const rest = folder("rest", {
      "flagport.yaml": projectYaml("checked").replace("name: Beta", "name: ''"),
      "beta.txt": "c\n",
      "staff-in.csv": "key\nann\n",
      "staff-out.txt": "bob\n"
    })
    const invalid = await runCli(["apply", join(rest, "flagport.yaml")], own)
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toContain("  segments[0].name: must be a string of 1 to 120 characters")
    const listed = await runCli(["export", "--project", "checked", "--out", join(folder("after-refusals", {}), "flagport.yaml")], own)
    expect(listed.code, listed.stderr).toBe(0)
    expect(readFileSync(join(ROOT, "after-refusals", "beta.included.txt"), "utf8")).toBe("a\nb\n")
  })
})

describe("key lists in flags as code, through a running server (--url)", () => {
  const t = serverForSuite()

  it("apply --url reads the files and uploads the lists that differ; export --url --out downloads them; the server's own apply refuses keys", { timeout: 180_000 }, async () => {
    const server = ["--url", t.url, "--key", t.keys.global]
    const dir = folder("remote", { "flagport.yaml": projectYaml("remote"), "beta.txt": lines(betaKeys), "staff-in.csv": "key\nann\n", "staff-out.txt": "bob\n" })
    const file = join(dir, "flagport.yaml")
    const applied = await runCli(["apply", file, ...server])
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stderr).toContain("Replaced the included keys of segment beta: 2,500 keys (list version 1).")
    expect(await storedList({ url: t.url, key: t.keys.global }, "remote", "beta", "included")).toEqual(betaKeys)
    const again = await runCli(["apply", file, "--dry-run", "--detailed-exitcode", ...server])
    expect(again.code, again.stdout).toBe(0)
    writeFileSync(join(dir, "staff-out.txt"), "bob\ncarol\n")
    const changed = await runCli(["apply", file, "--dry-run", "--detailed-exitcode", ...server])
    expect(changed.code).toBe(2)
    expect(changed.stdout).toContain("~ excluded keys of segment staff: 2 distinct keys from ./staff-out.txt (1 key now)")
    expect((await runCli(["apply", file, ...server])).code).toBe(0)
    expect(await storedList({ url: t.url, key: t.keys.global }, "remote", "staff", "excluded")).toEqual(["bob", "carol"])

    const out = join(ROOT, "remote-exported")
    mkdirSync(out)
    const exported = await runCli(["export", "--project", "remote", "--out", join(out, "flagport.yaml"), ...server])
    expect(exported.code, exported.stderr).toBe(0)
    expect(readFileSync(join(out, "beta.included.txt"), "utf8")).toBe(lines(betaKeys))
    expect(readFileSync(join(out, "staff.excluded.txt"), "utf8")).toBe("bob\ncarol\n")
    expect(readFileSync(join(out, "flagport.yaml"), "utf8")).toContain("    keys:\n      included: ./staff.included.txt\n      excluded: ./staff.excluded.txt\n")

    // A bad list file and a bad segment: both reported (the server checks the rest first), nothing applied.
    const bad = folder("remote-bad", { "flagport.yaml": projectYaml("remote").replace("name: Staff", "name: ''"), "beta.txt": "a\nb\rc\n", "staff-in.csv": "key\nann\n", "staff-out.txt": "bob\n" })
    const invalid = await runCli(["apply", join(bad, "flagport.yaml"), ...server])
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toContain("  segments[1].name: must be a string of 1 to 120 characters")
    expect(invalid.stderr).toContain("  segments[0].keys.included: ./beta.txt: line 2: the key must not contain a line break")
    expect(await storedList({ url: t.url, key: t.keys.global }, "remote", "beta", "included")).toEqual(betaKeys)

    // The server cannot read files beside a file it was sent: refused, nothing applied.
    const body = { project: { id: "remote" }, segments: [{ key: "beta", name: "Beta", conditions: [], keys: "./beta.txt" }] }
    const refused = await request(t.url, "POST", "/v1/projects/remote/apply", { key: t.keys.global, body })
    expect(refused.status).toBe(400)
    expect(JSON.parse(refused.text)).toMatchObject({ error: { details: [{ path: "segments[0].keys", message: expect.stringContaining("only `flagport apply` reads") }] } })
  })
})
