/**
 * `apply --plan FINGERPRINT` pins the segments' key list files too, through the real binary
 * (docs/guide/flags-as-code.md, "Key lists"): the fingerprint printed with a plan covers each list
 * file's count and digest, so a list file changed after the plan was shown is refused like a moved
 * project (nothing applied, no list replaced), and the files as reviewed apply; against the
 * database and through a running server (--url) alike.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { freshSqliteUrl, runCli } from "../cli/Process.js"
import { request } from "../http/fixtures.js"
import { serverForSuite } from "../http/serverForSuite.js"

const ROOT = mkdtempSync(join(tmpdir(), "flagport-keylists-pinned-"))

const projectYaml = (id: string, betaName = "Beta") => `project:
  id: ${id}
environments:
  - key: staging
    name: Staging
segments:
  - key: beta
    name: ${betaName}
    conditions: []
    keys: ./beta.txt
`

/** The fingerprint a plan ends with (the line `apply --plan` takes). */
const fingerprintOf = (stdout: string) => /\nPlan ([0-9a-f]{16}): apply --plan \1 applies this plan and nothing else\.\n$/.exec(stdout)?.[1]

/**
 * Applied once, then a reviewed change of the list file planned; the list file changed again
 * after the review is refused, as is the project file changed; the reviewed files apply.
 */
const pinnedLists = async (id: string, extra: ReadonlyArray<string>, env: Record<string, string>, stored: () => Promise<string>) => {
  const dir = join(ROOT, id)
  mkdirSync(dir)
  const file = join(dir, "flagport.yaml")
  const beta = join(dir, "beta.txt")
  writeFileSync(file, projectYaml(id))
  writeFileSync(beta, "a\nb\n")
  const first = await runCli(["apply", file, ...extra], env)
  expect(first.code, first.stderr).toBe(0)
  expect(await stored()).toBe("a\nb\n")

  // The change reviewed: one key of the list (same count, another digest), nothing else.
  writeFileSync(beta, "a\nc\n")
  const planned = await runCli(["apply", file, "--dry-run", "--detailed-exitcode", ...extra], env)
  expect(planned.code, planned.stderr).toBe(2)
  expect(planned.stdout).toContain("~ included keys of segment beta: 2 distinct keys from ./beta.txt (2 keys now)")
  const fingerprint = fingerprintOf(planned.stdout)
  expect(fingerprint, planned.stdout).toBeDefined()
  const json = await runCli(["apply", file, "--dry-run", "--json", ...extra], env)
  expect(JSON.parse(json.stdout).fingerprint).toBe(fingerprint)

  // The list file changed after the review (the same count again): refused, nothing replaced.
  writeFileSync(beta, "a\nd\n")
  const refused = await runCli(["apply", file, "--plan", fingerprint!, ...extra], env)
  expect(refused.code, refused.stdout).toBe(1)
  expect(refused.stderr).toContain(`Project '${id}' changed since plan ${fingerprint} was shown (its plan is now `)
  expect(refused.stderr).toContain("nothing was applied: plan again")
  expect(refused.stderr).not.toContain("Replaced")
  expect(await stored()).toBe("a\nb\n")
  // The project file changed (the list as reviewed): refused the same way.
  writeFileSync(beta, "a\nc\n")
  writeFileSync(file, projectYaml(id, "Beta testers"))
  const moved = await runCli(["apply", file, "--plan", fingerprint!, ...extra], env)
  expect(moved.code, moved.stdout).toBe(1)
  expect(moved.stderr).toContain(`changed since plan ${fingerprint} was shown`)
  expect(await stored()).toBe("a\nb\n")

  // The files as reviewed: applied.
  writeFileSync(file, projectYaml(id))
  const applied = await runCli(["apply", file, "--plan", fingerprint!, ...extra], env)
  expect(applied.code, applied.stderr).toBe(0)
  expect(applied.stderr).toContain("Replaced the included keys of segment beta: 2 keys (list version 2).")
  expect(await stored()).toBe("a\nc\n")
}

describe("apply --plan pins the key list files", () => {
  it("against the database: a list file changed after the plan is refused, nothing replaced; unchanged, it applies", { timeout: 180_000 }, async () => {
    const env = { DATABASE_URL: freshSqliteUrl() }
    expect((await runCli(["migrate"], env)).code).toBe(0)
    let exports = 0
    await pinnedLists("pinned", [], env, async () => {
      const out = join(ROOT, `export-${exports++}`)
      mkdirSync(out)
      const exported = await runCli(["export", "--project", "pinned", "--out", join(out, "flagport.yaml")], env)
      expect(exported.code, exported.stderr).toBe(0)
      return readFileSync(join(out, "beta.included.txt"), "utf8")
    })
  })

  describe("through a running server (--url)", () => {
    const t = serverForSuite()

    it("a list file changed after the plan is refused, nothing replaced; unchanged, it applies", { timeout: 180_000 }, async () => {
      await pinnedLists("pinned-remote", ["--url", t.url, "--key", t.keys.global], {}, async () => {
        const answer = await request(t.url, "GET", "/v1/projects/pinned-remote/segments/beta/keys/included", { key: t.keys.global })
        expect(answer.status, answer.text).toBe(200)
        return answer.text
      })
    })
  })
})
