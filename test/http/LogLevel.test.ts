/**
 * FLAGPORT_LOG_LEVEL through the standalone composition: the default (Info) logs the health
 * check's database error, Fatal and None keep it quiet, and a value that is not a level stops the
 * start with an error naming the variable. The error is provoked for real: the database is
 * closed under a running server and /health is asked.
 */
import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import { freshStorage } from "../fixtures/databases.js"
import { request, startServer } from "./fixtures.js"

const HEALTH_ERROR = "Health check: the database is unavailable"

/** Runs a server with FLAGPORT_LOG_LEVEL set to `level` (unset when undefined); returns what was logged. */
const logsWhenTheDatabaseGoes = async (level: string | undefined): Promise<string> => {
  if (level === undefined) delete process.env["FLAGPORT_LOG_LEVEL"]
  else process.env["FLAGPORT_LOG_LEVEL"] = level
  const lines: Array<string> = []
  const capture = (...args: Array<unknown>) => void lines.push(args.map(String).join(" "))
  const spies = [vi.spyOn(console, "log").mockImplementation(capture), vi.spyOn(console, "error").mockImplementation(capture)]
  const t = await startServer(freshStorage("sqlite"))
  try {
    await t.closeStorage()
    expect((await request(t.url, "GET", "/health")).status).toBe(503)
  } finally {
    await t.close()
    spies.forEach((spy) => spy.mockRestore())
  }
  return lines.join("\n")
}

describe("FLAGPORT_LOG_LEVEL", () => {
  afterEach(() => {
    delete process.env["FLAGPORT_LOG_LEVEL"]
  })

  it("unset: Info, so the database error is logged", async () => {
    expect(await logsWhenTheDatabaseGoes(undefined)).toContain(HEALTH_ERROR)
  })

  it.each(["error", "Warning", "warn", "DEBUG"])("%s (any case): the database error is still logged", async (level) => {
    expect(await logsWhenTheDatabaseGoes(level)).toContain(HEALTH_ERROR)
  })

  it.each(["Fatal", "none", "OFF"])("%s: the database error is not logged", async (level) => {
    expect(await logsWhenTheDatabaseGoes(level)).not.toContain(HEALTH_ERROR)
  })

  it("at trace level, no API key or part of one reaches the logs", async () => {
    process.env["FLAGPORT_LOG_LEVEL"] = "trace"
    const lines: Array<string> = []
    const capture = (...args: Array<unknown>) => void lines.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a) ?? String(a))).join(" "))
    const spies = (["log", "error", "warn", "info", "debug", "trace", "group", "groupCollapsed"] as const).map((m) => vi.spyOn(console, m).mockImplementation(capture))
    const t = await startServer(freshStorage("sqlite"))
    const made = `srv_${"z".repeat(43)}`
    try {
      await request(t.url, "GET", "/v1/projects", { key: t.keys.global })
      await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body: { environment: "development", context: { key: "u" } } })
      await request(t.url, "GET", "/v1/projects", { key: made })
      await request(t.url, "GET", "/v1/projects", { key: t.keys.revoked })
      await t.closeStorage()
      await request(t.url, "GET", "/v1/projects", { key: t.keys.scoped }) // fails inside: a 500 with its cause logged
    } finally {
      await t.close()
      spies.forEach((spy) => spy.mockRestore())
    }
    const logged = lines.join("\n")
    // Something was logged at all: the request after the database closed failed with a logged cause.
    expect(logged).toContain("Internal error")
    for (const key of [t.keys.global, t.keys.client, t.keys.scoped, t.keys.revoked, made]) {
      expect(logged).not.toContain(key)
      expect(logged).not.toContain(key.slice(4)) // the secret part without its prefix
    }
  })

  it("a value that is not a level stops the start, naming the variable", async () => {
    process.env["FLAGPORT_LOG_LEVEL"] = "loud"
    await expect(startServer(freshStorage("sqlite"))).rejects.toThrow(/FLAGPORT_LOG_LEVEL/)
  })
})
