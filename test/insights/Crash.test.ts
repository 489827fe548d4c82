/**
 * Insights survive a crash: `flagport serve` on SQLite counts evaluations in memory and writes
 * them at most every 10 s. Counts already written stay exactly as they were after a SIGKILL, and
 * the counts lost are at most those of the last flush interval (here: the ones made right before
 * the kill). The store is read back by a fresh process through the series endpoint.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { freshSqliteUrl, keyLines, startServer, stopServer, type ServerProcess } from "../cli/Process.js"

const TIMEOUT = 120_000
let running: Array<ServerProcess> = []

afterEach(() => {
  for (const server of running) server.child.kill("SIGKILL")
  running = []
})

const call = async (base: string, method: string, path: string, key: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as any) }
}

/** The stored total of the flag's evaluations in production (the series reads only what was flushed). */
const storedTotal = async (base: string, serverKey: string): Promise<number> => {
  const reply = await call(base, "GET", "/v1/projects/default/flags/crash-flag/insights?environment=production", serverKey)
  expect(reply.status).toBe(200)
  return (reply.body.variations as Array<{ total: number }>).reduce((sum, v) => sum + v.total, 0)
}

const evaluateTimes = async (base: string, clientKey: string, times: number) => {
  for (let i = 0; i < times; i++) {
    const reply = await call(base, "GET", `/v1/flags/crash-flag/eval?environment=production&key=user-${i}`, clientKey)
    expect(reply.status).toBe(200)
  }
}

describe("insights across a crash", () => {
  it("keeps every flushed count exactly and loses at most the last interval's", { timeout: TIMEOUT }, async () => {
    const env = { DATABASE_URL: freshSqliteUrl() }
    const first = await startServer(["serve", "--init"], env)
    running.push(first)
    const { CLIENT_KEY, SERVER_KEY } = keyLines(first.output().stdout)
    const created = await call(first.baseUrl, "POST", "/v1/projects/default/flags", SERVER_KEY!, {
      key: "crash-flag",
      name: "Crash flag",
      type: "boolean",
      variations: [{ key: "on", value: true }, { key: "off", value: false }]
    })
    expect(created.status).toBe(201)

    await evaluateTimes(first.baseUrl, CLIENT_KEY!, 40)
    // Written by the periodic flush (every 10 s): wait until the store shows all 40.
    const deadline = Date.now() + 30_000
    while ((await storedTotal(first.baseUrl, SERVER_KEY!)) < 40) {
      expect(Date.now()).toBeLessThan(deadline)
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(await storedTotal(first.baseUrl, SERVER_KEY!)).toBe(40)

    // More evaluations, then a crash before (most likely) the next flush.
    await evaluateTimes(first.baseUrl, CLIENT_KEY!, 25)
    first.child.kill("SIGKILL")
    await first.exited

    const second = await startServer(["serve"], env)
    running.push(second)
    const total = await storedTotal(second.baseUrl, SERVER_KEY!)
    // The flushed 40 are all there; of the 25 after them, a flush may have caught some or all.
    expect(total).toBeGreaterThanOrEqual(40)
    expect(total).toBeLessThanOrEqual(65)
    expect(await stopServer(second)).toBe(0)
  })
})
