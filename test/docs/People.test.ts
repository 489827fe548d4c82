/**
 * docs/people.md stays true: its roles table is the one the server checks (GRANTS), and its
 * curl walk-through works as written. The walk-through runs against the real binary on a fresh
 * SQLite file, the first shell's command with `npx flagport` replaced by the binary's path (npx
 * from a temporary directory would look for the package elsewhere), on a free port instead of
 * 8080 and on 127.0.0.1 only; every console command runs unchanged, in one bash, and its output
 * must be the documented answer (`...` standing for what differs from run to run).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { GRANTS, type Permission, type Role } from "../../src/domain/people/Role.js"
import { BIN, childEnv, freePort, ROOT } from "../cli/Process.js"

const docs = readFileSync(join(ROOT, "docs/people.md"), "utf8")

const between = (start: string, end: string): string => {
  const found = new RegExp(`<!-- ${start} -->\\n([\\s\\S]*?)\\n<!-- ${end} -->`).exec(docs)
  if (found === null) throw new Error(`docs/people.md has no <!-- ${start} --> ... <!-- ${end} --> block`)
  return found[1]!
}

describe("docs/people.md, the roles table", () => {
  const rows = between("roles-table:start", "roles-table:end")
    .split("\n")
    .slice(2)
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()))
  const roles: ReadonlyArray<Role> = ["viewer", "editor", "admin"]
  const PERMISSIONS: ReadonlyArray<Permission> = ["read", "write", "propose", "approve", "manage"]

  it("has the columns viewer, editor, admin, global admin", () => {
    const header = between("roles-table:start", "roles-table:end").split("\n")[0]!.split("|").slice(2, -1).map((cell) => cell.trim())
    expect(header).toEqual([...roles, "global admin"])
  })

  it("shows each permission once, granted to exactly the roles GRANTS gives it (and to global admins)", () => {
    const shown = rows.flatMap(([what, ...marks]) => {
      const permission = /^`([a-z]+)`:/.exec(what!)?.[1]
      return permission === undefined ? [] : [{ permission, marks }]
    })
    expect(shown.map((row) => row.permission)).toEqual(PERMISSIONS)
    for (const { permission, marks } of shown) {
      const expected = [...roles.map((role) => (GRANTS[role].includes(permission as Permission) ? "✔" : "–")), "✔"]
      expect(marks, permission).toEqual(expected)
    }
  })

  it("ends with what only a global admin may do", () => {
    expect(rows.at(-1)!.slice(1)).toEqual(["–", "–", "–", "✔"])
  })
})

/** A console command (`$ ...` with its `\` continuation lines) and the answer the docs show for it. */
interface Step {
  readonly command: string
  readonly expected: string
}

const fencedBlocks = (text: string, language: string): ReadonlyArray<string> =>
  [...text.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((match) => match[1]!.replace(/\n$/, ""))

const stepsOf = (block: string): ReadonlyArray<Step> => {
  const steps: Array<{ command: Array<string>; expected: Array<string> }> = []
  let continuing = false
  for (const line of block.split("\n")) {
    if (line.startsWith("$ ")) {
      steps.push({ command: [line.slice(2)], expected: [] })
      continuing = line.endsWith("\\")
    } else if (continuing) {
      steps.at(-1)!.command.push(line)
      continuing = line.endsWith("\\")
    } else {
      if (steps.length === 0) throw new Error(`a console block must start with a command: ${line}`)
      steps.at(-1)!.expected.push(line)
    }
  }
  return steps.map((step) => ({ command: step.command.join("\n"), expected: step.expected.join("\n") }))
}

/** The documented answer as a pattern: `...` is anything (within the answer), the rest literal. */
const patternOf = (expected: string): RegExp =>
  new RegExp(`^${expected.split("...").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*?")}$`)

const run = (command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("docs/people.md, the walk-through with curl", () => {
  let server: ChildProcess | undefined
  let cwd: string | undefined
  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve))
      process.kill(-server.pid, "SIGTERM") // the whole pipeline (the server and tee) of the first shell
      await exited
    }
    if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true })
  })

  it("works as written: from the first start to Edna signed in as an editor, and her limits", { timeout: 180_000 }, async () => {
    expect(spawnSync("curl", ["--version"]).status, "the walk-through needs curl on the PATH").toBe(0)
    const walkthrough = between("walkthrough:start", "walkthrough:end")
    const [serve, ...others] = fencedBlocks(walkthrough, "sh")
    expect(others, "one sh block: the first shell's").toEqual([])
    expect(serve).toContain("npx flagport serve --init")
    const steps = fencedBlocks(walkthrough, "console").flatMap(stepsOf)
    expect(steps.length).toBeGreaterThan(15)

    const port = await freePort()
    const local = (text: string) => text.replaceAll("http://localhost:8080", `http://localhost:${port}`)
    cwd = mkdtempSync(join(tmpdir(), "flagport-people-docs-"))
    const env = childEnv({ PORT: String(port), HOST: "127.0.0.1" })

    // The first shell, in its own process group so that the pipeline can be stopped as a whole.
    server = spawn("bash", ["-c", serve!.replace("npx flagport", `node ${JSON.stringify(BIN)}`)], { cwd, env, detached: true, stdio: ["ignore", "ignore", "pipe"] })
    let serverErr = ""
    server.stderr!.on("data", (chunk: Buffer) => (serverErr += chunk.toString()))
    const deadline = Date.now() + 90_000
    for (;;) {
      let printed = ""
      try {
        printed = readFileSync(join(cwd, "first-start.txt"), "utf8")
      } catch {
        // not yet made
      }
      if (/^SETUP_URL=/m.test(printed)) break
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the first shell printed no SETUP_URL:\n${printed}\n${serverErr}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }

    // Every console command in one bash (the variables carry over), each answer after a marker.
    const script = steps.map((step, index) => `printf '\\n@@step ${index}@@\\n'\n${local(step.command)}`).join("\n")
    const result = await run(script, cwd, env)
    const answers = new Map<number, string>()
    const parts = result.stdout.split(/\n@@step (\d+)@@\n/)
    for (let i = 1; i < parts.length; i += 2) answers.set(Number(parts[i]), parts[i + 1]!.replace(/\r/g, "").replace(/\s+$/, ""))
    steps.forEach((step, index) => {
      const expected = local(step.expected)
      const actual = answers.get(index)
      const context = `$ ${step.command}\n(stderr: ${result.stderr})`
      if (actual === undefined || !patternOf(expected).test(actual)) expect(actual, context).toBe(expected)
    })
  })
})
