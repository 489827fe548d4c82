/**
 * Runs a docs page's curl walk-through as written (test/docs/People.test.ts, ChangeRequests.test.ts):
 * the block between `<!-- walkthrough:start -->` and `<!-- walkthrough:end -->` holds one `sh` block
 * (the first shell: a server started with `npx flagport serve --init | tee first-start.txt`) and
 * `console` blocks. The first shell runs against the real binary on a fresh SQLite file, `npx
 * flagport` replaced by the binary's path (npx from a temporary directory would look for the
 * package elsewhere), on a free port instead of 8080 and on 127.0.0.1 only; every console command
 * runs unchanged, in one bash, and its output must be the documented answer (`...` standing for
 * what differs from run to run).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { BIN, childEnv, freePort, ROOT } from "../cli/Process.js"

/** The text of `docs/<page>` between `<!-- start -->` and `<!-- end -->`. */
export const between = (page: string, start: string, end: string): string => {
  const docs = readFileSync(join(ROOT, "docs", page), "utf8")
  const found = new RegExp(`<!-- ${start} -->\\n([\\s\\S]*?)\\n<!-- ${end} -->`).exec(docs)
  if (found === null) throw new Error(`docs/${page} has no <!-- ${start} --> ... <!-- ${end} --> block`)
  return found[1]!
}

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

/** A walk-through's run: `check` runs it (once), `stop` ends its server and removes its directory. */
export const walkthrough = (page: string, options: { readonly minSteps: number }) => {
  let server: ChildProcess | undefined
  let cwd: string | undefined
  const stop = async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve))
      process.kill(-server.pid, "SIGTERM") // the whole pipeline (the server and tee) of the first shell
      await exited
    }
    if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true })
  }
  const check = async () => {
    expect(spawnSync("curl", ["--version"]).status, "the walk-through needs curl on the PATH").toBe(0)
    const text = between(page, "walkthrough:start", "walkthrough:end")
    const [serve, ...others] = fencedBlocks(text, "sh")
    expect(others, "one sh block: the first shell's").toEqual([])
    expect(serve).toContain("npx flagport serve --init")
    const steps = fencedBlocks(text, "console").flatMap(stepsOf)
    expect(steps.length).toBeGreaterThan(options.minSteps)

    const port = await freePort()
    const local = (s: string) => s.replaceAll("http://localhost:8080", `http://localhost:${port}`)
    cwd = mkdtempSync(join(tmpdir(), "flagport-docs-"))
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
  }
  return { check, stop }
}
