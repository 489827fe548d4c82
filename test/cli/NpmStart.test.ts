/**
 * `npm start` as a process manager runs it: a SIGTERM to the npm process must stop the server
 * gracefully (npm forwards the signal to its child, so nothing may sit in between that swallows
 * it), and while the server runs, nothing else does (no esbuild service left over from bundling
 * the checkout's sources at start).
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { childEnv, freePort, freshSqliteUrl, ROOT, type ServerProcess, untilHealthy } from "./Process.js"
import { descendants, isRunning } from "./ProcessTree.js"

const TIMEOUT = 180_000

const started: Array<number> = []
const scratch: Array<string> = []
afterEach(() => {
  // A server that survived its npm parent would outlive the test run.
  for (const pid of started.splice(0)) if (isRunning(pid)) process.kill(pid, "SIGKILL")
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const portIsClosed = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

const waitFor = async (condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await condition()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return condition()
}

describe("npm start", () => {
  it("runs the server with nothing beside it and stops it gracefully on a SIGTERM to npm", { timeout: TIMEOUT }, async () => {
    const port = await freePort()
    // A fresh bundle cache: this start bundles the sources with esbuild, as the first start after an
    // edit does. Inside the checkout, so that the bundle's package imports resolve to node_modules.
    mkdirSync(join(ROOT, ".tmp"), { recursive: true })
    const cache = mkdtempSync(join(ROOT, ".tmp", "cli-cache-"))
    scratch.push(cache)
    const npm = spawn("npm", ["start"], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: freshSqliteUrl(), PORT: String(port), HOST: "127.0.0.1", FLAGPORT_CLI_CACHE: cache }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    npm.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    npm.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | string | null>((resolve) => npm.on("exit", (code, signal) => resolve(code ?? signal)))
    const server: ServerProcess = { child: npm, baseUrl: `http://127.0.0.1:${port}`, output: () => ({ stdout, stderr }), exited }
    await untilHealthy(server, 120_000)

    const below = descendants(npm.pid!)
    started.push(...below.map((info) => info.pid))
    const servers = below.filter((info) => /^\S*node\s/.test(info.command) && info.command.includes("bin/flagport.mjs"))
    expect(servers).toHaveLength(1)
    const serverPid = servers[0]!.pid

    npm.kill("SIGTERM")
    expect(await waitFor(() => !isRunning(serverPid), 20_000)).toBe(true)
    expect(await waitFor(() => portIsClosed(port), 5_000)).toBe(true)
    expect(await exited).toBe(0)
    // The server was npm's own child (no shell in between) and had no children (no esbuild service).
    expect(below.map((info) => info.command)).toEqual([servers[0]!.command])
    expect(servers[0]!.parent).toBe(npm.pid)
    expect(stderr).toContain("Stopped.")
  })
})
