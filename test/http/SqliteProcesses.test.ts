/**
 * Two server processes on one SQLite file (hosts that each embed Flagport, or two `serve`
 * processes): nothing carries a change from one to the other but the file itself, so the second
 * must notice the first's writes (`PRAGMA data_version`) and tell its streams within a second,
 * as it tells them its own. The second also warns at start that another process has the file open.
 */
import { afterEach, describe, expect, it } from "vitest"
import { freshSqliteUrl, keyLines, type ServerProcess, startServer } from "../cli/Process.js"
import { etagOf, openStream } from "./sse.js"

const TIMEOUT = 120_000

const children: Array<ServerProcess> = []
afterEach(() => {
  for (const server of children.splice(0)) if (server.child.exitCode === null) server.child.kill("SIGKILL")
})

const flag = (key: string) => ({
  key,
  name: key,
  type: "boolean",
  variations: [{ key: "on", value: true }, { key: "off", value: false }]
})

describe("two server processes on one SQLite file", () => {
  it("a change made through one reaches the other's stream within 1 s, every time", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: freshSqliteUrl() }
    const first = await startServer(["serve", "--init"], env)
    children.push(first)
    const { CLIENT_KEY, SERVER_KEY } = keyLines(first.output().stdout)
    const second = await startServer(["serve"], env)
    children.push(second)
    const started = `${second.output().stdout}\n${second.output().stderr}`
    expect(started).toMatch(/Another process \(pid \d+: [^)]*flagport[^)]*\) has the SQLite database .* use PostgreSQL/)

    const stream = await openStream(second.baseUrl, "/v1/stream?environment=production", { authorization: `Bearer ${CLIENT_KEY}` })
    expect(stream.status).toBe(200)
    const initial = etagOf(await stream.event(0))

    const delays: Array<number> = []
    for (let trial = 1; trial <= 3; trial++) {
      const created = await fetch(`${first.baseUrl}/v1/projects/default/flags`, {
        method: "POST",
        headers: { authorization: `Bearer ${SERVER_KEY}`, "content-type": "application/json" },
        body: JSON.stringify(flag(`across-${trial}`))
      })
      const acknowledgedAt = performance.now()
      expect(created.status).toBe(201)
      const event = await stream.event(trial, 1_000)
      delays.push(Math.round(performance.now() - acknowledgedAt))
      expect(etagOf(event)).not.toBe(initial)
      const config = await fetch(`${second.baseUrl}/v1/config?environment=production`, { headers: { authorization: `Bearer ${CLIENT_KEY}` } })
      expect(config.headers.get("etag")).toBe(etagOf(event))
      expect(((await config.json()) as { flags: Array<{ key: string }> }).flags.map((f) => f.key)).toContain(`across-${trial}`)
    }
    console.log(`delays (ms) from the first process's 201 to the second's event: ${delays.join(", ")}`)
    stream.close()
  })
})
