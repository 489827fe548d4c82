/**
 * What `flagport serve` tells the person who started it: where to listen comes from `--port` and
 * `--host` as well as PORT and HOST; the output names the dashboard and the API docs at a URL one
 * can open (localhost, not 0.0.0.0; the public URL when FLAGPORT_PUBLIC_URL is set); the first start says the keys are secrets, and a later start
 * says how to get new ones.
 */
import { spawn } from "node:child_process"
import { describe, expect, it } from "vitest"
import { BIN, childEnv, freePort, freshSqliteUrl, ROOT, type ServerProcess, stopServer, untilHealthy } from "./Process.js"

const TIMEOUT = 180_000

/** `flagport serve ...args` with no PORT or HOST in its environment; healthy at 127.0.0.1:port. */
const serve = async (args: ReadonlyArray<string>, port: number, env: Record<string, string>): Promise<ServerProcess> => {
  const child = spawn(process.execPath, [BIN, "serve", ...args], { cwd: ROOT, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | string | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)))
  const server = { child, baseUrl: `http://127.0.0.1:${port}`, output: () => ({ stdout, stderr }), exited }
  await untilHealthy(server, 60_000)
  return server
}

/** The lines written once the server listens (the stderr note ends with the docs line). */
const listening = async (server: ServerProcess) => {
  while (!server.output().stderr.includes("API docs:")) await new Promise((r) => setTimeout(r, 50))
  return server.output().stderr
}

describe("flagport serve, as a person starting it sees it", () => {
  it("listens where --host and --port say, and prints the dashboard's and the docs' URLs", { timeout: TIMEOUT }, async () => {
    const port = await freePort()
    const server = await serve(["--init", "--host", "127.0.0.1", "--port", String(port)], port, { DATABASE_URL: freshSqliteUrl() })
    const stderr = await listening(server)
    expect(stderr).toContain(`Dashboard: http://127.0.0.1:${port}/ui/`)
    expect(stderr).toContain(`API docs:  http://127.0.0.1:${port}/docs`)
    // The keys go to stdout, as the specification's lines; the note beside them says what they are.
    expect(server.output().stdout).toMatch(/^SERVER_KEY=srv_/m)
    expect(stderr).toMatch(/Treat them as secrets/)
    expect(stderr).toContain("npx flagport seed")
    expect((await fetch(`${server.baseUrl}/ui/`)).status).toBe(200)
    expect(await stopServer(server)).toBe(0)
  })

  it("on every interface, prints a localhost URL one can open", { timeout: TIMEOUT }, async () => {
    const port = await freePort()
    const server = await serve(["--host", "0.0.0.0", "--port", String(port)], port, { DATABASE_URL: freshSqliteUrl() })
    const stderr = await listening(server)
    expect(stderr).toContain(`Dashboard: http://localhost:${port}/ui/`)
    expect(stderr).not.toMatch(/http:\/\/0\.0\.0\.0/)
    expect(await stopServer(server)).toBe(0)
  })

  it("with FLAGPORT_PUBLIC_URL, prints the public URL (where sign-in accepts writes from), not localhost", { timeout: TIMEOUT }, async () => {
    const port = await freePort()
    const server = await serve(["--init", "--host", "0.0.0.0", "--port", String(port)], port, {
      DATABASE_URL: freshSqliteUrl(),
      FLAGPORT_PUBLIC_URL: "https://flags.example.com/team/"
    })
    const stderr = await listening(server)
    expect(stderr).toContain("Dashboard: https://flags.example.com/team/ui/")
    expect(stderr).toContain("API docs:  https://flags.example.com/team/docs")
    expect(stderr).not.toContain("http://localhost")
    expect(server.output().stdout).toMatch(/^SETUP_URL=https:\/\/flags\.example\.com\/team\/ui\/setup#token=/m)
    expect(await stopServer(server)).toBe(0)
  })

  it("a later start says the keys cannot be shown again and how to make new ones", { timeout: TIMEOUT }, async () => {
    const databaseUrl = freshSqliteUrl()
    const port = await freePort()
    await stopServer(await serve(["--init", "--host", "127.0.0.1", "--port", String(port)], port, { DATABASE_URL: databaseUrl }))
    const again = await serve(["--init"], port, { DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1" })
    const stderr = await listening(again)
    expect(again.output().stdout).not.toContain("SERVER_KEY=")
    expect(stderr).toContain("cannot be shown again")
    expect(stderr).toContain("npx flagport seed")
    expect(await stopServer(again)).toBe(0)
  })
})
