/**
 * `flagport serve` as a real process honours the settings its services read when they are built:
 * FLAGPORT_SESSION_IDLE_HOURS ends an idle session, FLAGPORT_STALE_AFTER_DAYS decides which flags
 * are stale (the storage is built before the server, so these must be provided to it then).
 */
import { sessionCookieOf } from "../http/people.js"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as SqliteStorage from "../../adapters/sql-sqlite/SqliteStorage.js"
import { openStream, type OpenStream } from "../http/sse.js"
import { freePort, freshSqliteUrl, keyLines, runCli, type ServerProcess, startServer, stopServer } from "./Process.js"

const TIMEOUT = 180_000

const signInFirstAdmin = async (server: ServerProcess): Promise<string> => {
  const token = keyLines(server.output().stdout).SETUP_URL!.split("#token=")[1]
  const setup = await fetch(`${server.baseUrl}/v1/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password: "the first admin's password" })
  })
  expect(setup.status).toBe(200)
  return sessionCookieOf(setup)
}

describe("flagport serve and the settings of its services", () => {
  it("FLAGPORT_SESSION_IDLE_HOURS: a session idle longer than that ends (401)", { timeout: TIMEOUT }, async () => {
    // 0.001 hours: 3.6 seconds.
    const server = await startServer(["serve", "--init"], { DATABASE_URL: freshSqliteUrl(), FLAGPORT_SESSION_IDLE_HOURS: "0.001" })
    try {
      const cookie = await signInFirstAdmin(server)
      const me = () => fetch(`${server.baseUrl}/v1/me`, { headers: { cookie } })
      expect((await me()).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 5_000))
      const idle = await me()
      expect(idle.status, await idle.text()).toBe(401)
    } finally {
      await stopServer(server)
    }
  })

  it("FLAGPORT_STALE_AFTER_DAYS: a flag five days old, never evaluated, is stale after 1 day, not after the default 30", { timeout: TIMEOUT }, async () => {
    const url = freshSqliteUrl()
    const first = await startServer(["serve", "--init"], { DATABASE_URL: url })
    const key = keyLines(first.output().stdout).SERVER_KEY!
    const created = await fetch(`${first.baseUrl}/v1/projects/default/flags`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "old-flag", type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    })
    expect(created.status, await created.text()).toBe(201)
    expect(await stopServer(first)).toBe(0)
    // Five days old, as if made then.
    const fiveDaysAgo = new Date(Date.now() - 5 * 24 * 60 * 60 * 1000).toISOString()
    await Effect.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE flagport_flags SET created_at = ${fiveDaysAgo}`).pipe(
        Effect.provide(SqliteStorage.layer({ filename: url.slice("sqlite:".length) }))
      )
    )
    const staleKeys = async (env: Record<string, string>) => {
      const server = await startServer(["serve"], { DATABASE_URL: url, ...env })
      try {
        const reply = await fetch(`${server.baseUrl}/v1/projects/default/flags?status=stale`, { headers: { authorization: `Bearer ${key}` } })
        expect(reply.status).toBe(200)
        return ((await reply.json()) as { data: Array<{ key: string }> }).data.map((flag) => flag.key)
      } finally {
        await stopServer(server)
      }
    }
    expect(await staleKeys({})).toEqual([])
    expect(await staleKeys({ FLAGPORT_STALE_AFTER_DAYS: "1" })).toEqual(["old-flag"])
  })

  it("FLAGPORT_TRUST_PROXY and FLAGPORT_EVENT_STREAMS_PER_CALLER: event streams counted per client behind the proxy and per key; a malformed value stops the start", { timeout: TIMEOUT }, async () => {
    const server = await startServer(["serve", "--init"], {
      DATABASE_URL: freshSqliteUrl(),
      FLAGPORT_TRUST_PROXY: "loopback, 10.0.0.0/8",
      FLAGPORT_STREAMS_PER_ADDRESS: "1",
      FLAGPORT_EVENT_STREAMS_PER_CALLER: "2"
    })
    const streams: Array<OpenStream> = []
    try {
      const key = keyLines(server.output().stdout).SERVER_KEY!
      const from = async (address: string) => {
        const stream = await openStream(server.baseUrl, "/v1/projects/default/events", { authorization: `Bearer ${key}`, "x-forwarded-for": address })
        streams.push(stream)
        return stream
      }
      expect((await from("203.0.113.1")).status).toBe(200)
      const sameClient = await from("203.0.113.1")
      expect(sameClient.status).toBe(429)
      expect(JSON.parse(sameClient.body).error.message).toContain("(FLAGPORT_STREAMS_PER_ADDRESS)")
      expect((await from("203.0.113.2")).status).toBe(200)
      const thirdOfKey = await from("203.0.113.3")
      expect(thirdOfKey.status).toBe(429)
      expect(JSON.parse(thirdOfKey.body)).toEqual({
        error: { code: "rate_limited", message: "This API key or person already has 2 open event streams (FLAGPORT_EVENT_STREAMS_PER_CALLER); close one (a dashboard tab) or retry later." }
      })
    } finally {
      for (const stream of streams) stream.close()
      await stopServer(server)
    }
    const refused = await runCli(["serve"], { DATABASE_URL: "memory:", HOST: "127.0.0.1", PORT: String(await freePort()), FLAGPORT_TRUST_PROXY: "10.0.0.0/33" })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain(`FLAGPORT_TRUST_PROXY: "expected false, true, a number of proxies (1, 2, ...), or proxy addresses and CIDR ranges`)
    expect(refused.stderr).toContain(`\"10.0.0.0/33\" is none of these`)
    // A range holding every address would let any client choose its own: refused at start.
    const everyone = await runCli(["serve"], { DATABASE_URL: "memory:", HOST: "127.0.0.1", PORT: String(await freePort()), FLAGPORT_TRUST_PROXY: "0.0.0.0/0" })
    expect(everyone.code).toBe(1)
    expect(everyone.stderr).toContain(`FLAGPORT_TRUST_PROXY: "\"0.0.0.0/0\" trusts every address, so any client could choose the address it is counted by: list your proxies' own addresses`)
  })
})
