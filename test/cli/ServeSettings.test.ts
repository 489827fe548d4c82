/**
 * `flagport serve` as a real process honours the settings its services read when they are built:
 * FLAGPORT_SESSION_IDLE_HOURS ends an idle session, FLAGPORT_STALE_AFTER_DAYS decides which flags
 * are stale (the storage is built before the server, so these must be provided to it then).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as SqliteStorage from "../../adapters/sql-sqlite/SqliteStorage.js"
import { freshSqliteUrl, keyLines, type ServerProcess, startServer, stopServer } from "./Process.js"

const TIMEOUT = 180_000

const signInFirstAdmin = async (server: ServerProcess): Promise<string> => {
  const token = keyLines(server.output().stdout).SETUP_URL!.split("#token=")[1]
  const setup = await fetch(`${server.baseUrl}/v1/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password: "the first admin's password" })
  })
  expect(setup.status).toBe(200)
  return setup.headers.get("set-cookie")!.split(";")[0]!
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
})
