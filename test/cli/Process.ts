/**
 * Runs the real `flagport` binary (bin/flagport.mjs, as `npx flagport` does) as a child process.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const ROOT = fileURLToPath(new URL("../..", import.meta.url))
export const BIN = join(ROOT, "bin/flagport.mjs")

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** The environment of a child: ours, minus anything that would colour or redirect its output. */
export const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }
  delete base.DATABASE_URL
  delete base.PORT
  delete base.HOST
  delete base.FLAGPORT_DEBUG
  delete base.FLAGPORT_KEY
  return { ...base, ...env }
}

/** Runs `flagport ...args` to completion (as another user when root gives `as`). */
export const runCli = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  cwd = ROOT,
  as: { readonly uid: number; readonly gid: number } | undefined = undefined
): Promise<CliResult> =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"], ...as })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }))
  })

/** `KEY=value` lines of an output, as a record (other lines ignored). */
export const keyLines = (stdout: string): Record<string, string> =>
  Object.fromEntries(
    stdout
      .split("\n")
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1]!, match[2]!])
  )

/** A fresh SQLite database URL in its own temporary directory (the file does not exist yet). */
export const freshSqliteUrl = (): string => `sqlite:${join(mkdtempSync(join(tmpdir(), "flagport-cli-")), "flagport.db")}`

/** A free TCP port, chosen by the OS. */
export const freePort = async (): Promise<number> => {
  const { createServer } = await import("node:net")
  return new Promise((resolvePromise, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolvePromise(port))
    })
  })
}

/** A running `flagport serve` child with its output so far. */
export interface ServerProcess {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly output: () => { stdout: string; stderr: string }
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  readonly exited: Promise<number | string | null>
}

/**
 * Starts `flagport ...args` (a serve command) and resolves once GET /health answers, so the
 * caller can send requests. Fails when the process exits first or does not come up in time.
 */
export const startServer = async (
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  timeoutMs = 60_000
): Promise<ServerProcess> => {
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: childEnv({ HOST: "127.0.0.1", PORT: String(port), ...env }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | string | null>((resolveExit) =>
    child.on("exit", (code, signal) => resolveExit(code ?? signal))
  )
  const baseUrl = `http://127.0.0.1:${port}`
  const server = { child, baseUrl, output: () => ({ stdout, stderr }), exited }
  await untilHealthy(server, timeoutMs)
  return server
}

/**
 * Resolves once GET /health answers on the server's base URL; fails (killing the child) when the
 * process exits first or does not answer within `timeoutMs`.
 */
export const untilHealthy = async (server: ServerProcess, timeoutMs: number): Promise<void> => {
  let ended = false
  void server.exited.then(() => (ended = true))
  const deadline = Date.now() + timeoutMs
  const describe = () => `\nstdout: ${server.output().stdout}\nstderr: ${server.output().stderr}`
  for (;;) {
    if (ended) throw new Error(`server exited before it answered:${describe()}`)
    if (Date.now() > deadline) {
      server.child.kill("SIGKILL")
      throw new Error(`server did not answer within ${timeoutMs} ms:${describe()}`)
    }
    try {
      const response = await fetch(`${server.baseUrl}/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
}

/** Stops a server with SIGTERM and returns its exit code. */
export const stopServer = async (server: ServerProcess): Promise<number | string | null> => {
  server.child.kill("SIGTERM")
  return server.exited
}
