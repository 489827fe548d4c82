/**
 * A command stopped by a signal (Ctrl-C, a CI job cancelled) exits 130 (SIGINT) or 143 (SIGTERM),
 * never 0, with one line on stderr saying what was and was not done; `serve`, which a signal is
 * meant to stop, still exits 0. Each test signals the real binary at a moment it can know the
 * command is waiting: on a server that never answers, or reading a file from a pipe.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { BIN, childEnv, freshSqliteUrl, ROOT, runCli, startServer } from "./Process.js"

const TIMEOUT = 60_000

const PROJECT_FILE = `project:\n  id: default\n  name: Default\nflags:\n  - key: interrupted\n    name: Interrupted\n    type: boolean\n    variations:\n      - { key: "on", value: true }\n      - { key: "off", value: false }\n`

interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** `flagport ...args` as a child whose stdin the test holds. */
const spawnCli = (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(env), stdio: ["pipe", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const ended = new Promise<Ended>((resolveEnd) => child.on("close", (code, signal) => resolveEnd({ code, signal, stdout, stderr })))
  return { child, ended }
}

/** A server that takes requests and never answers them; `arrived` resolves with the first. */
const silentServer = async () => {
  let arrive: (request: IncomingMessage) => void = () => undefined
  const arrived = new Promise<IncomingMessage>((resolveArrival) => (arrive = resolveArrival))
  const server: Server = createServer((request) => arrive(request))
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen))
  const close = () => {
    server.closeAllConnections()
    server.close()
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrived, close }
}

/** The request, or a failure with the command's output when it ended before sending it. */
const arrivedOrEnded = (arrived: Promise<IncomingMessage>, ended: Promise<Ended>) =>
  Promise.race([
    arrived,
    ended.then((result) => Promise.reject(new Error(`the command ended (${result.code}) before asking:\n${result.stdout}\n${result.stderr}`)))
  ])

const running: Array<{ close: () => void }> = []
afterEach(() => {
  for (const item of running.splice(0)) item.close()
})

const kept = (child: ChildProcess) => running.push({ close: () => void child.kill("SIGKILL") })

describe("an interrupted command", () => {
  const env = { DATABASE_URL: freshSqliteUrl() }

  beforeAll(async () => {
    const seeded = await runCli(["seed"], env)
    expect(seeded.code, seeded.stderr).toBe(0)
  }, TIMEOUT)

  it("apply stopped by SIGINT while the server has not answered exits 130 and says the server may have applied it", { timeout: TIMEOUT }, async () => {
    const silent = await silentServer()
    running.push(silent)
    const { child, ended } = spawnCli(["apply", "--url", silent.url, "--key", "srv_interrupted", "-"], env)
    kept(child)
    child.stdin.end(PROJECT_FILE)
    const request = await arrivedOrEnded(silent.arrived, ended)
    expect(request.url).toBe("/v1/projects/default/apply")

    child.kill("SIGINT")
    const result = await ended
    expect(result.code).toBe(130)
    expect(result.stderr.trim().split("\n").at(-1)).toBe(
      `interrupted by SIGINT: the file was sent to ${silent.url} for project default and no answer had come: ` +
        "the server applies a plan whole or not at all, and may have applied it (apply --dry-run shows what is left to do)"
    )
  })

  it("export stopped by SIGTERM while the server has not answered exits 143 and says its file was not written", { timeout: TIMEOUT }, async () => {
    const silent = await silentServer()
    running.push(silent)
    const out = `${freshSqliteUrl().slice("sqlite:".length)}.yaml`
    const { child, ended } = spawnCli(["export", "--project", "default", "--out", out, "--url", silent.url, "--key", "srv_interrupted"], env)
    kept(child)
    await arrivedOrEnded(silent.arrived, ended)

    child.kill("SIGTERM")
    const result = await ended
    expect(result.code).toBe(143)
    expect(result.stderr.trim().split("\n").at(-1)).toBe(`interrupted by SIGTERM: ${out} was not written`)
  })

  it("apply stopped by SIGINT while reading its file changes nothing, exits 130 and says so", { timeout: TIMEOUT }, async () => {
    const { child, ended } = spawnCli(["apply", "-"], env)
    kept(child)
    // More than a pipe holds: the write completes only once the command is reading its stdin.
    await new Promise<void>((resolveWrite, reject) =>
      child.stdin.write(`${"# padding\n".repeat(100_000)}${PROJECT_FILE}`, (error) => (error ? reject(error) : resolveWrite()))
    )

    child.kill("SIGINT")
    const result = await ended
    expect(result.code).toBe(130)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim()).toBe("interrupted by SIGINT: nothing was applied")
    const flags = await runCli(["flags", "list", "--project", "default", "--json"], env)
    expect(flags.code, flags.stderr).toBe(0)
    expect((JSON.parse(flags.stdout) as { data: ReadonlyArray<{ key: string }> }).data.map((flag) => flag.key)).not.toContain("interrupted")
  })

  it("serve stopped by SIGINT shuts down and exits 0, with no such line", { timeout: TIMEOUT }, async () => {
    const server = await startServer(["serve"], { DATABASE_URL: freshSqliteUrl() })
    kept(server.child)
    server.child.kill("SIGINT")
    expect(await server.exited).toBe(0)
    expect(server.output().stderr).not.toContain("interrupted by")
  })
})
