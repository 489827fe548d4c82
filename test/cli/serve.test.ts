/**
 * `flagport serve` as a real process: the first start (npm start = `serve --init`) seeds an empty
 * database and prints the keys once, a restart prints nothing, and SIGTERM drains in-flight
 * requests, closes the database and exits 0.
 */
import { sessionCookieOf } from "../http/people.js"
import { existsSync } from "node:fs"
import { request } from "node:http"
import { describe, expect, it } from "vitest"
import { backends } from "./Databases.js"
import { keyLines, startServer, stopServer } from "./Process.js"

const TIMEOUT = 180_000

const get = (baseUrl: string, path: string, key: string) =>
  fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })

const evaluate = (baseUrl: string, key: string, body: unknown) =>
  fetch(`${baseUrl}/v1/evaluate`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

const count = (text: string, needle: string) => text.split(needle).length - 1

describe.each(backends)("flagport serve on $name", (backend) => {
  it("first start seeds and prints the keys once; a restart only serves", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backend.fresh() }

    const first = await startServer(["serve", "--init"], env)
    const firstOut = first.output().stdout
    expect(count(firstOut, "SERVER_KEY=")).toBe(1)
    expect(count(firstOut, "CLIENT_KEY=")).toBe(1)
    const keys = keyLines(firstOut)
    expect(keys.PROJECT_ID).toBe("default")
    expect(keys.SERVER_KEY).toMatch(/^srv_/)
    expect(keys.CLIENT_KEY).toMatch(/^cli_/)
    // After the three key lines, the first global admin's setup link at the server's own address.
    expect(firstOut.trim().split("\n").map((line) => line.split("=")[0])).toEqual(["SERVER_KEY", "CLIENT_KEY", "PROJECT_ID", "SETUP_URL"])
    expect(keys.SETUP_URL).toMatch(new RegExp(`^${first.baseUrl}/ui/setup#token=[A-Za-z0-9_-]{43}$`))
    expect(first.output().stderr).toContain("admin@localhost")
    // The link works: the first admin sets a password and is signed in.
    const setup = await fetch(`${first.baseUrl}/v1/auth/setup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: keys.SETUP_URL!.split("#token=")[1], password: "the first admin's password" })
    })
    expect(setup.status).toBe(200)
    const cookie = sessionCookieOf(setup)
    const me = await fetch(`${first.baseUrl}/v1/me`, { headers: { cookie } })
    expect(((await me.json()) as { user: { email: string; admin: boolean } }).user).toMatchObject({ email: "admin@localhost", admin: true })

    // The printed keys work: the server key manages, the client key evaluates.
    const projects = await get(first.baseUrl, "/v1/projects", keys.SERVER_KEY!)
    expect(projects.status).toBe(200)
    expect(((await projects.json()) as { data: Array<{ id: string }> }).data.map((p) => p.id)).toEqual(["default"])
    const environments = await get(first.baseUrl, "/v1/projects/default/environments", keys.SERVER_KEY!)
    expect(((await environments.json()) as { data: Array<{ key: string }> }).data.map((e) => e.key)).toEqual([
      "development",
      "staging",
      "production"
    ])
    const evaluated = await evaluate(first.baseUrl, keys.CLIENT_KEY!, { environment: "production", context: { key: "user-1" } })
    expect(evaluated.status).toBe(200)
    expect(await evaluated.json()).toEqual({ environment: "production", flags: {} })
    expect(await stopServer(first)).toBe(0)

    const second = await startServer(["serve", "--init"], env)
    expect(second.output().stdout).not.toContain("SERVER_KEY=")
    expect(second.output().stdout).not.toContain("CLIENT_KEY=")
    expect(second.output().stdout).not.toContain("SETUP_URL=")
    // Same data, same keys.
    expect((await get(second.baseUrl, "/v1/projects", keys.SERVER_KEY!)).status).toBe(200)
    expect(await stopServer(second)).toBe(0)
  })

  it("SIGTERM: stops accepting, finishes the request in flight, closes the database, exits 0", { timeout: TIMEOUT }, async () => {
    const databaseUrl = await backend.fresh()
    const server = await startServer(["serve", "--init"], { DATABASE_URL: databaseUrl })
    const { CLIENT_KEY } = keyLines(server.output().stdout)
    const url = new URL(server.baseUrl)

    // A request whose body arrives in two parts: the server has accepted it and is reading it.
    const body = JSON.stringify({ environment: "production", context: { key: "in-flight-user" } })
    const half = Math.floor(body.length / 2)
    const inFlight: { finish: () => void } = { finish: () => {} }
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: "/v1/evaluate",
          method: "POST",
          headers: { authorization: `Bearer ${CLIENT_KEY}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
        },
        (res) => {
          let text = ""
          res.on("data", (chunk: Buffer) => (text += chunk.toString()))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
        }
      )
      req.on("error", reject)
      req.write(body.slice(0, half))
      inFlight.finish = () => req.end(body.slice(half))
    })
    await new Promise((r) => setTimeout(r, 300))

    server.child.kill("SIGTERM")
    // New connections are refused while the first request is still open.
    let refused = false
    for (let attempt = 0; attempt < 100 && !refused; attempt++) {
      try {
        await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(1000) })
        await new Promise((r) => setTimeout(r, 100))
      } catch {
        refused = true
      }
    }
    expect(refused).toBe(true)

    inFlight.finish()
    const answered = await response
    expect(answered.status).toBe(200)
    expect(JSON.parse(answered.body)).toEqual({ environment: "production", flags: {} })
    expect(await server.exited).toBe(0)
    expect(server.output().stderr).toContain("Stopped.")
    if (backend.name === "sqlite") {
      // Closing the last connection checkpoints and removes the write-ahead log.
      const file = databaseUrl.slice("sqlite:".length)
      expect(existsSync(file)).toBe(true)
      expect(existsSync(`${file}-wal`)).toBe(false)
    }
  })
})

describe("flagport serve without --init", () => {
  it("migrates an empty database and serves, printing no keys", { timeout: TIMEOUT }, async () => {
    const server = await startServer(["serve"], { DATABASE_URL: await backends[0]!.fresh() })
    expect(server.output().stdout).not.toContain("KEY=")
    const health = await fetch(`${server.baseUrl}/health`)
    expect(health.status).toBe(200)
    expect(await stopServer(server)).toBe(0)
  })

  it("a port already in use is one line and exit 1", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: await backends[0]!.fresh() }
    const server = await startServer(["serve"], env)
    const { runCli } = await import("./Process.js")
    const clash = await runCli(["serve"], { ...env, HOST: "127.0.0.1", PORT: new URL(server.baseUrl).port })
    expect(clash.code).toBe(1)
    expect(clash.stderr.trim().split("\n").filter((line) => line.startsWith("error:"))).toEqual([
      expect.stringMatching(/^error: cannot start the server: .*EADDRINUSE/)
    ])
    expect(await stopServer(server)).toBe(0)
  })
})
