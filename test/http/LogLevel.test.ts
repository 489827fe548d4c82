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

  it("a value that is not a level stops the start, naming the variable", async () => {
    process.env["FLAGPORT_LOG_LEVEL"] = "loud"
    await expect(startServer(freshStorage("sqlite"))).rejects.toThrow(/FLAGPORT_LOG_LEVEL/)
  })
})
