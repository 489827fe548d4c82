/**
 * The server's refusals, through a real Flagport: a wrong environment and a wrong key end
 * `createClient` at once (well within the start timeout) with the server's status, code and
 * message; with a bootstrap the client serves it instead and tells the refusal to a listener
 * attached after `createClient` returned; a key revoked while the client runs leaves the last
 * configuration serving, is told once, and is asked about again only after a long wait, whether
 * the client streams or polls. Bounds on time are generous: they tell "at once" from "after the
 * start timeout", and "backed off" from a retry loop of 100-200 ms.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { type ConfigSnapshot, createClient, FlagportServerError } from "../../adapters/client/index.js"
import { type Flagport, startFlagport } from "./RealServer.js"
import { onOff, track } from "./Tracked.js"

/** Far longer than any refusal may take to end the start. */
const START_TIMEOUT_MS = 30_000
/** What a client would retry at if it treated a refusal as an outage. */
const FAST_BACKOFF = { initialMs: 100, maxMs: 200 }

let server: Flagport

beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("kept", "boolean", onOff)
  await server.target("kept", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
}, 60_000)

afterAll(() => server.close())

/** The real `fetch`, recording each answer's path and status. */
const recording = () => {
  const answers: Array<{ readonly path: string; readonly status: number; readonly at: number }> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init)
    answers.push({ path: new URL(input instanceof Request ? input.url : String(input)).pathname, status: response.status, at: Date.now() })
    return response
  }
  return { answers, fetch }
}

/** `createClient`'s rejection and how long it took. */
const refusedStart = async (options: Parameters<typeof createClient>[0]): Promise<{ error: unknown; tookMs: number }> => {
  const started = Date.now()
  try {
    track(await createClient(options))
  } catch (error) {
    return { error, tookMs: Date.now() - started }
  }
  throw new Error("createClient resolved")
}

const bootstrap = {
  environment: "production",
  flags: [{ key: "boot", type: "boolean", enabled: true, variations: onOff, defaultVariationKey: "on", offVariationKey: "off", rules: [] }],
  segments: []
} as unknown as ConfigSnapshot

describe("createClient when the server refuses", () => {
  it("a wrong environment: rejects at once with the server's 404 not_found and its message, and asks nothing more", async () => {
    const { answers, fetch } = recording()
    const { error, tookMs } = await refusedStart({ url: server.url, key: server.serverKey, environment: "prod", startTimeoutMs: START_TIMEOUT_MS, fetch, backoff: FAST_BACKOFF })
    expect(tookMs).toBeLessThan(START_TIMEOUT_MS / 3)
    expect(error).toBeInstanceOf(FlagportServerError)
    expect(error).toMatchObject({ name: "FlagportServerError", status: 404, code: "not_found", serverMessage: "Environment 'prod' not found in project 'p1'" })
    expect((error as Error).message).toBe("flagport: the server refused the request: 404 not_found: Environment 'prod' not found in project 'p1'")
    // The client was closed: no poll, no stream reconnection after the rejection.
    const asked = answers.length
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(answers).toHaveLength(asked)
  })

  it("a wrong key: rejects at once with the server's 401 unauthorized and its message", async () => {
    const { error, tookMs } = await refusedStart({ url: server.url, key: "srv_not-a-key", environment: "production", startTimeoutMs: START_TIMEOUT_MS })
    expect(tookMs).toBeLessThan(START_TIMEOUT_MS / 3)
    expect(error).toMatchObject({ status: 401, code: "unauthorized", serverMessage: "Invalid API key." })
    expect((error as Error).message).toBe("flagport: the server refused the request: 401 unauthorized: Invalid API key.")
  })

  it("with a bootstrap it resolves at once, serves the bootstrap, and a listener attached right after hears the refusal (and one attached later too)", async () => {
    const started = Date.now()
    const flags = track(await createClient({ url: server.url, key: server.serverKey, environment: "prod", bootstrap, startTimeoutMs: START_TIMEOUT_MS }))
    const heard: Array<{ message: string; refusal: FlagportServerError | undefined }> = []
    flags.on("error", (message, refusal) => heard.push({ message, refusal }))
    expect(Date.now() - started).toBeLessThan(START_TIMEOUT_MS / 3)
    await vi.waitFor(() => expect(heard).toHaveLength(1))
    expect(heard[0]!.refusal).toMatchObject({ status: 404, code: "not_found", serverMessage: "Environment 'prod' not found in project 'p1'" })
    expect(heard[0]!.message).toBe(
      "the server refused the request: 404 not_found: Environment 'prod' not found in project 'p1'; serving the configuration it had, asking again in about a minute, " +
        "then less and less often (up to every 15 minutes) until the server accepts"
    )
    expect(flags.refusal).toBe(heard[0]!.refusal)
    expect(flags.boolean("boot", { key: "u" }, false)).toBe(true)

    const later: Array<string> = []
    await new Promise((resolve) => setTimeout(resolve, 200))
    flags.on("error", (message) => later.push(message))
    await vi.waitFor(() => expect(later).toEqual([heard[0]!.message]))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(heard).toHaveLength(1) // the first listener is not told again
  })
})

describe("a key revoked while the client runs", () => {
  const revokedWhileRunning = async (mode: { readonly stream: boolean }) => {
    const made = await server.createKey("server")
    const { answers, fetch } = recording()
    const flags = track(
      await createClient({ url: server.url, key: made.key, environment: "production", stream: mode.stream, pollIntervalMs: 200, backoff: FAST_BACKOFF, fetch, sendInsights: false })
    )
    expect(flags.status).toBe("ready")
    const heard: Array<{ message: string; refusal: FlagportServerError | undefined }> = []
    flags.on("error", (message, refusal) => heard.push({ message, refusal }))
    await new Promise((resolve) => setTimeout(resolve, 300)) // the stream is connected, polls have answered

    await server.revokeKey(made.id)
    await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 10_000 })
    const firstRefusal = answers.find((answer) => answer.status === 401)!
    expect(heard[0]!.refusal).toMatchObject({ status: 401, code: "unauthorized", serverMessage: "Invalid API key." })
    expect(heard[0]!.message).toMatch(/^the server refused the request: 401 unauthorized: Invalid API key\.; serving the configuration it had, asking again in about a minute/)
    // The last configuration keeps serving.
    expect(flags.boolean("kept", { key: "u" }, false)).toBe(true)
    expect(flags.status).toBe("ready")
    expect(flags.refusal).toMatchObject({ status: 401 })

    // Backed off: with FAST_BACKOFF an outage would be retried five to ten times a second.
    // (What follows the first refusal at once is given two seconds, for a loaded machine; the next ask is a minute away.)
    await new Promise((resolve) => setTimeout(resolve, 4_000))
    const refusals = answers.filter((answer) => answer.status === 401)
    return { heard, refusals, late: refusals.filter((answer) => answer.at > firstRefusal.at + 2_000) }
  }

  it("streaming: the stream's end and its reconnection meet 401; told once, then nothing asked for a long while", async () => {
    const { heard, refusals, late } = await revokedWhileRunning({ stream: true })
    expect(refusals.map((answer) => answer.path)).toContain("/v1/stream")
    // The refetch after the stream ended, its reconnection, and at most the poll that was due.
    expect(refusals.length).toBeLessThanOrEqual(3)
    expect(late).toEqual([])
    expect(heard).toHaveLength(1)
  })

  it("polling: the next poll meets 401; told once, then no poll for a long while", async () => {
    const { heard, refusals, late } = await revokedWhileRunning({ stream: false })
    expect(refusals.map((answer) => answer.path)).toEqual(["/v1/config"])
    expect(late).toEqual([])
    expect(heard).toHaveLength(1)
  })
})
