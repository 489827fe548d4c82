/**
 * The stream change source against a fake SSE server on loopback, with a driven clock: the
 * reconnection delays follow the backoff schedule exactly and reset after a long connection,
 * `Last-Event-ID` carries the ETag held, a silent or unanswered stream counts as lost, a server
 * without the endpoint is retried rarely, and one refusing the key on the (slow) refusal schedule.
 */
import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import { backoffDelay, type BackoffPolicy } from "../../adapters/client/Backoff.js"
import type { Endpoint } from "../../adapters/client/Endpoint.js"
import { runStream, type StreamEnd, type StreamHost } from "../../adapters/client/StreamSource.js"
import { DrivenTimers } from "./DrivenTimers.js"
import { FakeFlagport } from "./FakeFlagport.js"

const backoff: BackoffPolicy = { initialMs: 1_000, maxMs: 8_000, resetAfterMs: 60_000 }
const refusalBackoff: BackoffPolicy = { initialMs: 60_000, maxMs: 240_000, resetAfterMs: 60_000 }
const options = { backoff, refusalBackoff, idleTimeoutMs: 120_000, unsupportedRetryMs: 300_000 }

const fakes: Array<FakeFlagport> = []
const stops: Array<AbortController> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) stop.abort()
  for (const fake of fakes.splice(0)) await fake.close()
})

const setUp = async (idleTimeoutMs = options.idleTimeoutMs) => {
  const fake = await FakeFlagport.start()
  fakes.push(fake)
  const timers = new DrivenTimers(0.5)
  const log: Array<string> = []
  const retries: Array<{ delay: number; ended: StreamEnd }> = []
  let etag: string | undefined = 'W/"held"'
  const host: StreamHost = {
    etag: () => etag,
    announced: (announced) => {
      log.push(`announced ${announced}`)
      etag = announced
    },
    up: () => log.push("up"),
    down: (message) => log.push(`down ${message}`),
    rejected: (refusal) => log.push(`rejected ${refusal.status} ${refusal.code}: ${refusal.serverMessage}`)
  }
  const endpoint: Endpoint = { url: fake.url, key: "srv_test", environment: "production", projectId: undefined, fetch: globalThis.fetch, requestTimeoutMs: 10_000 }
  const stop = new AbortController()
  stops.push(stop)
  const running = runStream(endpoint, timers, host, { ...options, idleTimeoutMs }, stop.signal, (delay, ended) => retries.push({ delay, ended }))
  return { fake, timers, log, retries, running, stop }
}

const delay = (attempt: number) => backoffDelay(backoff, attempt, 0.5)
const refusalDelay = (attempt: number) => backoffDelay(refusalBackoff, attempt, 0.5)

describe("runStream", () => {
  it("reconnects on the backoff schedule, resets it after a long connection, and resumes from the ETag held", async () => {
    const { fake, timers, log, retries } = await setUp()
    fake.stream = 503
    await vi.waitFor(() => expect(retries).toHaveLength(1))
    timers.advance(retries[0]!.delay)
    await vi.waitFor(() => expect(retries).toHaveLength(2))
    timers.advance(retries[1]!.delay)
    await vi.waitFor(() => expect(retries).toHaveLength(3))
    expect(retries.map((r) => r.delay)).toEqual([delay(0), delay(1), delay(2)])
    expect(retries.map((r) => r.ended.kind)).toEqual(["lost", "lost", "lost"])

    // The server comes back: connect, get the current ETag, then a change.
    fake.stream = "open"
    timers.advance(retries[2]!.delay)
    await vi.waitFor(() => expect(log).toContain('announced W/"1"'))
    expect(log[0]).toBe("up")
    const connect = fake.requests.filter((r) => r.path === "/v1/stream").at(-1)!
    expect(connect).toMatchObject({ authorization: "Bearer srv_test", lastEventId: 'W/"held"' })
    fake.etag = 'W/"2"'
    fake.announce()
    await vi.waitFor(() => expect(log).toContain('announced W/"2"'))

    // A minute connected, then the server drops the stream: the schedule starts over.
    timers.advance(60_000)
    fake.dropStreams()
    await vi.waitFor(() => expect(retries).toHaveLength(4))
    expect(log.at(-1)).toMatch(/^down /)
    expect(retries[3]!.delay).toBe(delay(0))
    fake.stream = 503
    timers.advance(retries[3]!.delay)
    await vi.waitFor(() => expect(retries).toHaveLength(5))
    expect(retries[4]!.delay).toBe(delay(1))
    // The reconnect named the ETag the client held by then.
    expect(fake.requests.filter((r) => r.path === "/v1/stream").at(-1)!.lastEventId).toBe('W/"2"')
  })

  it("a short-lived connection does not reset the schedule", async () => {
    const { fake, timers, retries } = await setUp()
    fake.stream = "open"
    await vi.waitFor(() => expect(fake.openStreams).toBe(1))
    fake.dropStreams()
    await vi.waitFor(() => expect(retries).toHaveLength(1))
    timers.advance(retries[0]!.delay)
    await vi.waitFor(() => expect(fake.openStreams).toBe(1))
    timers.advance(5_000)
    fake.dropStreams()
    await vi.waitFor(() => expect(retries).toHaveLength(2))
    expect(retries.map((r) => r.delay)).toEqual([delay(0), delay(1)])
  })

  it("a stream silent for longer than the idle timeout is lost; pings keep it alive", async () => {
    const { fake, timers, log, retries } = await setUp(45_000)
    fake.stream = "open"
    await vi.waitFor(() => expect(log).toContain('announced W/"1"'))
    timers.advance(30_000)
    fake.ping()
    await new Promise((r) => setTimeout(r, 100))
    timers.advance(30_000) // 60 s since connect, 30 s since the ping: still up
    expect(retries).toHaveLength(0)
    timers.advance(15_000)
    await vi.waitFor(() => expect(retries).toHaveLength(1))
    expect(retries[0]!.ended).toEqual({ kind: "lost", message: "the stream was silent for 45000 ms" })
    expect(log.at(-1)).toBe("down the stream was silent for 45000 ms")
  })

  it("an unanswered connection attempt is lost after the request timeout", async () => {
    const { fake, timers, retries } = await setUp()
    fake.stream = "hang"
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1))
    timers.advance(10_000)
    await vi.waitFor(() => expect(retries).toHaveLength(1))
    expect(retries[0]!.ended.kind).toBe("lost")
  })

  it("a server without the endpoint is retried every five minutes; a refusal is reported and retried on the refusal schedule", async () => {
    const { fake, timers, log, retries } = await setUp()
    await vi.waitFor(() => expect(retries).toHaveLength(1))
    expect(retries[0]).toMatchObject({ delay: 300_000, ended: { kind: "unsupported" } })
    fake.stream = 401
    timers.advance(300_000)
    await vi.waitFor(() => expect(retries).toHaveLength(2))
    expect(retries[1]).toMatchObject({ delay: refusalDelay(0), ended: { kind: "rejected", refusal: { status: 401, code: "x", serverMessage: "stream 401" } } })
    for (const attempt of [1, 2, 3]) {
      timers.advance(retries.at(-1)!.delay)
      await vi.waitFor(() => expect(retries).toHaveLength(attempt + 2))
    }
    // Doubling to the cap (three quarters of each nominal delay at random = 0.5): minutes, never the reconnection schedule's seconds.
    expect(retries.slice(1).map((r) => r.delay)).toEqual([45_000, 90_000, 180_000, 180_000])
    expect(log).toEqual(Array(4).fill("rejected 401 x: stream 401"))
  })

  it("a connection starts the refusal schedule over; 408 and 429 are retried as a lost stream", async () => {
    const { fake, timers, retries } = await setUp()
    fake.stream = 403
    await vi.waitFor(() => expect(retries).toHaveLength(1))
    timers.advance(retries[0]!.delay)
    await vi.waitFor(() => expect(retries).toHaveLength(2))
    expect(retries.map((r) => r.delay)).toEqual([refusalDelay(0), refusalDelay(1)])
    fake.stream = "open"
    timers.advance(retries[1]!.delay)
    await vi.waitFor(() => expect(fake.openStreams).toBe(1))
    fake.stream = 403
    fake.dropStreams()
    await vi.waitFor(() => expect(retries).toHaveLength(3))
    timers.advance(retries[2]!.delay)
    await vi.waitFor(() => expect(retries).toHaveLength(4))
    expect(retries[3]).toMatchObject({ delay: refusalDelay(0), ended: { kind: "rejected" } })
    for (const status of [429, 408]) {
      fake.stream = status
      timers.advance(retries.at(-1)!.delay)
      await vi.waitFor(() => expect(retries.at(-1)!.ended.kind).toBe("lost"))
    }
  })

  it("stops when aborted, closing the connection", async () => {
    const { fake, running, stop } = await setUp()
    fake.stream = "open"
    await vi.waitFor(() => expect(fake.openStreams).toBe(1))
    stop.abort()
    await running
    await vi.waitFor(() => expect(fake.openStreams).toBe(0))
  })
})
