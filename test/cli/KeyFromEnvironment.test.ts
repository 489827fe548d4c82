/**
 * The API key of `--url` from the environment variable FLAGPORT_KEY (a key on the command line
 * shows in `ps` and shell history), through the real binary against a running server: export,
 * apply and codegen take it, `--key` wins over it, an empty one is unset, `--url` with no key is a
 * usage error naming both ways, and no key ever appears in what the command prints. Also runs the
 * run steps of the GitHub Actions workflow in docs/guide/flags-as-code.md as written (with `${{ ... }}`
 * filled in as Actions does), so the documented CI example works.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawn } from "node:child_process"
import { afterAll, describe, expect, it } from "vitest"
import * as YAML from "yaml"
import { richFile } from "../ascode/RichProject.js"
import { request } from "../http/fixtures.js"
import { serverForSuite } from "../http/serverForSuite.js"
import { BIN, childEnv, type CliResult, ROOT, runCli } from "./Process.js"

const TIMEOUT = 120_000
const DIR = mkdtempSync(join(tmpdir(), "flagport-key-env-"))

const t = serverForSuite()
afterAll(() => rmSync(DIR, { recursive: true, force: true }))

/** Every key the fixture made: none may ever show in a command's output. */
const allKeys = () => Object.values(t.keys)

const expectNoKey = (result: CliResult, extra: ReadonlyArray<string> = []) => {
  for (const key of [...allKeys(), ...extra]) {
    expect(result.stdout, "stdout shows a key").not.toContain(key)
    expect(result.stderr, "stderr shows a key").not.toContain(key)
  }
}

describe("FLAGPORT_KEY", () => {
  it("export, apply and codegen --url take the key from FLAGPORT_KEY when --key is not given", { timeout: TIMEOUT }, async () => {
    const env = { FLAGPORT_KEY: t.keys.global }
    const exported = await runCli(["export", "--project", "p1", "--format", "json", "--url", t.url], env)
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toBe((await request(t.url, "GET", "/v1/projects/p1/export?format=json", { key: t.keys.global })).text)
    expectNoKey(exported)

    const file = join(DIR, "env.yaml")
    writeFileSync(file, YAML.stringify(richFile("from-env")))
    const applied = await runCli(["apply", file, "--json", "--url", t.url], env)
    expect(applied.code, applied.stderr).toBe(0)
    expect(JSON.parse(applied.stdout)).toMatchObject({ applied: true, projectId: "from-env" })
    expect((await request(t.url, "GET", "/v1/projects/from-env/flags", { key: t.keys.global })).status).toBe(200)
    expectNoKey(applied)

    const generated = await runCli(["codegen", "--project", "p1", "--url", t.url], env)
    expect(generated.code, generated.stderr).toBe(0)
    expect(generated.stdout).toBe((await request(t.url, "GET", "/v1/projects/p1/codegen/typescript", { key: t.keys.global })).text)
    expectNoKey(generated)
  })

  it("--key wins over FLAGPORT_KEY, both ways", { timeout: TIMEOUT }, async () => {
    // The variable holds a key the server refuses for this; --key holds one it accepts: success.
    const won = await runCli(["codegen", "--project", "p1", "--url", t.url, "--key", t.keys.global], { FLAGPORT_KEY: t.keys.client })
    expect(won.code, won.stderr).toBe(0)
    expect(won.stdout).toContain("flagKeys")
    // And the reverse: --key a client key, the variable a server key: the server refuses --key's.
    const refused = await runCli(["codegen", "--project", "p1", "--url", t.url, "--key", t.keys.client], { FLAGPORT_KEY: t.keys.global })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("A server API key is required for management endpoints.")
    expectNoKey(won)
    expectNoKey(refused)
  })

  it("--url without any key (none, or an empty FLAGPORT_KEY) is a usage error naming both ways; --key without --url too", { timeout: TIMEOUT }, async () => {
    const message = "error: --url needs an API key: set the environment variable FLAGPORT_KEY (preferred) or pass --key KEY\n"
    for (const command of [["export", "--project", "p1"], ["apply", join(DIR, "missing.yaml")], ["codegen", "--project", "p1"]]) {
      for (const env of [{}, { FLAGPORT_KEY: "" }]) {
        const result = await runCli([...command, "--url", t.url], env)
        expect(result.code, `${command[0]} ${JSON.stringify(env)}`).toBe(2)
        expect(result.stderr).toBe(message)
        expect(result.stdout).toBe("")
      }
      const keyAlone = await runCli([...command, "--key", t.keys.global], { DATABASE_URL: "memory:" })
      expect(keyAlone.code).toBe(2)
      expect(keyAlone.stderr).toMatch(/^error: --key goes with --url \(the server to ask\); without --url the command (reads|applies to) DATABASE_URL\n$/)
      expectNoKey(keyAlone)
    }
  })

  it("without --url FLAGPORT_KEY is not read: the command reads DATABASE_URL", { timeout: TIMEOUT }, async () => {
    const result = await runCli(["export", "--project", "nope"], { DATABASE_URL: "memory:", FLAGPORT_KEY: t.keys.global })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("nope")
    expectNoKey(result)
  })

  it("never shows the key: not when refused, malformed, unreachable, or with FLAGPORT_DEBUG", { timeout: TIMEOUT }, async () => {
    const unknown = "srv_NotAKeyOfThisServer0123456789abcdef"
    const refused = await runCli(["export", "--project", "p1", "--url", t.url], { FLAGPORT_KEY: unknown, FLAGPORT_DEBUG: "1" })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("Invalid API key.")
    expectNoKey(refused, [unknown])

    // A key mangled on its way (a line break or a space inside) would make fetch throw an error
    // quoting the whole header; it is refused before, by where it came from only.
    const inner = `${t.keys.global.slice(0, 12)}\n${t.keys.global.slice(12)}`
    for (const [args, env, from] of [
      [["--key", inner], {}, "--key"],
      [[], { FLAGPORT_KEY: inner }, "FLAGPORT_KEY"],
      [[], { FLAGPORT_KEY: `${t.keys.global.slice(0, 12)} ${t.keys.global.slice(12)}` }, "FLAGPORT_KEY"]
    ] as const) {
      const mangled = await runCli(["export", "--project", "p1", "--url", t.url, ...args], { ...env, FLAGPORT_DEBUG: "1" })
      expect(mangled.code).toBe(2)
      expect(mangled.stderr.split("\n")[0]).toBe(
        `error: ${from} holds characters no API key has (spaces, line breaks or control characters): check how it was set`
      )
      expectNoKey(mangled, [t.keys.global.slice(0, 12), t.keys.global.slice(12)])
    }
    // A pasted line break around the key is dropped: the key works.
    const padded = await runCli(["export", "--project", "p1", "--url", t.url], { FLAGPORT_KEY: `${t.keys.global}\n` })
    expect(padded.code, padded.stderr).toBe(0)

    // Nothing listens on port 9 of 127.0.0.1 (discard): the fetch fails.
    const unreachable = await runCli(["apply", join(DIR, "env.yaml"), "--url", "http://127.0.0.1:9"], { FLAGPORT_KEY: t.keys.global, FLAGPORT_DEBUG: "1" })
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain("cannot reach http://127.0.0.1:9")
    expectNoKey(unreachable)
  })
})

/** The `yaml` block of docs/guide/flags-as-code.md that is the workflow file. */
const documentedWorkflow = (): { jobs: Record<string, { steps: Array<{ name?: string; run?: string; env?: Record<string, string> }> }> } => {
  const page = readFileSync(join(ROOT, "docs/guide/flags-as-code.md"), "utf8")
  const block = /```yaml\n(# \.github\/workflows\/flags\.yml\n[\s\S]*?)```/.exec(page)
  if (block === null) throw new Error("docs/guide/flags-as-code.md has no workflow block")
  return YAML.parse(block[1]!)
}

/** What Actions does with `${{ vars.X }}` and `${{ secrets.X }}` before the shell sees the text. */
const expand = (text: string, values: Record<string, string>): string =>
  text.replace(/\$\{\{\s*([a-z]+\.[A-Z_]+)\s*\}\}/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`the workflow uses ${name}, which this test does not provide`)
    return value
  })

/** A run step as Actions runs it on ubuntu (`bash -e`), with `flagport` the checkout's binary. */
const runStep = (script: string, env: Record<string, string>, cwd: string): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const prelude = `flagport() { "${process.execPath}" "${BIN}" "$@"; }\n`
    const child = spawn("bash", ["-e", "-c", prelude + script], { cwd, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("the CI workflow of docs/guide/flags-as-code.md", () => {
  it("passes the key in the environment, never on a command line, and its plan and apply steps run as written", { timeout: TIMEOUT }, async () => {
    const workflow = documentedWorkflow()
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps).filter((step) => step.run?.includes("flagport apply"))
    expect(steps.map((step) => step.name)).toEqual(["Plan", "Apply"])
    const values = { "vars.FLAGPORT_URL": t.url, "secrets.FLAGPORT_SERVER_KEY": t.keys.global }
    const cwd = mkdtempSync(join(DIR, "repo-"))
    writeFileSync(join(cwd, "flagport.yaml"), YAML.stringify(richFile("ci")))
    const results: Array<CliResult> = []
    for (const step of steps) {
      expect(step.run).not.toContain("--key")
      expect(step.run).not.toContain("secrets.")
      expect(step.env).toEqual({ FLAGPORT_KEY: "${{ secrets.FLAGPORT_SERVER_KEY }}" })
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value, values)]))
      const result = await runStep(expand(step.run!, values), env, cwd)
      expect(result.code, `${step.name}: ${result.stderr}`).toBe(0)
      expectNoKey(result)
      results.push(result)
    }
    const [plan, apply] = results
    expect(plan!.stdout).toMatch(/^Project ci: \d+ to create, \d+ to change, 0 to delete\./)
    expect(plan!.stdout).toContain("The merge will change the project (plan above).")
    expect(readFileSync(join(cwd, "plan.txt"), "utf8")).toMatch(/^Project ci:/)
    expect(apply!.stderr).toMatch(/Applied \d+ changes to project ci\./)
    expect((await request(t.url, "GET", "/v1/projects/ci/flags", { key: t.keys.global })).status).toBe(200)
  })
})
