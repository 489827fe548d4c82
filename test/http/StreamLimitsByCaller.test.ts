/**
 * Stream bounds behind a reverse proxy, through real servers over SQLite: a server key or a person
 * (all their sessions together) holds at most FLAGPORT_EVENT_STREAMS_PER_CALLER management event
 * streams, so one person cannot use up the share of an address everyone shares; with
 * FLAGPORT_TRUST_PROXY the per-address bound of event and change streams counts the client the
 * proxy reports in X-Forwarded-For (what a client writes further left changes nothing; several
 * headers, IPv6 forms, garbage), and without it (the default) the header is never believed.
 * Refusals: 429 `rate_limited` in the envelope with `Retry-After`, naming the setting.
 */
import { request as httpRequest } from "node:http"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import type { LaneConfig } from "../../adapters/http/lane/EvaluationLaneLayer.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { freshSqliteFile } from "../fixtures/databases.js"
import { perTest } from "../fixtures/perTest.js"
import { startServer, type TestServer } from "./fixtures.js"
import { makePerson } from "./people.js"
import { openStream, type OpenStream } from "./sse.js"

const { closers, scoped } = perTest()

const serve = async (lane: LaneConfig): Promise<TestServer> => {
  const file = await scoped(freshSqliteFile)
  const t = await startServer(StorageLayer.sqliteStorage(file), { lane })
  closers.push(() => t.close())
  return t
}

/** Opens a stream and keeps it open until the test ends; answers its status and, refused, its body. */
const open = async (t: TestServer, path: string, headers: Record<string, string>): Promise<OpenStream> => {
  const stream = await openStream(t.url, path, headers)
  closers.push(() => stream.close())
  return stream
}

const EVENTS = "/v1/projects/p1/events"
const CHANGES = "/v1/stream?environment=development"
const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
const refusal = (message: string) => ({ error: { code: "rate_limited", message } })

const expectRefused = (stream: OpenStream, message: string) => {
  expect(stream.status).toBe(429)
  expect(stream.headers["retry-after"]).toBe("30")
  expect(JSON.parse(stream.body)).toEqual(refusal(message))
}

/** A stream request sent with raw header lines (several X-Forwarded-For headers); answers the status. */
const rawStatus = (t: TestServer, path: string, rawHeaders: Array<string>) =>
  new Promise<number>((resolve, reject) => {
    // Header lines as an array are sent as given: Host too must be among them.
    const url = new URL(path, t.url)
    const req = httpRequest(url, { headers: ["host", url.host, ...rawHeaders], agent: false }, (res) => {
      resolve(res.statusCode ?? 0)
      if (res.statusCode === 200) closers.push(() => void req.destroy())
      else res.resume()
    })
    req.on("error", reject)
    req.end()
  })

describe("management event streams per key or person", () => {
  it("a key holds at most its share; another key, the change streams and a freed slot still get through", async () => {
    const t = await serve({ streamLimits: { eventsPerCaller: 3, perAddress: 100 } })
    const held = [await open(t, EVENTS, bearer(t.keys.global)), await open(t, EVENTS, bearer(t.keys.global)), await open(t, EVENTS, bearer(t.keys.global))]
    expect(held.map((s) => s.status)).toEqual([200, 200, 200])
    expectRefused(
      await open(t, EVENTS, bearer(t.keys.global)),
      "This API key or person already has 3 open event streams (FLAGPORT_EVENT_STREAMS_PER_CALLER); close one (a dashboard tab) or retry later."
    )
    // Another credential from the same address is not held back; nor are change streams (a count of their own).
    expect((await open(t, EVENTS, bearer(t.keys.scoped))).status).toBe(200)
    expect((await open(t, `${CHANGES}&projectId=p1`, bearer(t.keys.global))).status).toBe(200)
    // A stream that ends gives its slot back.
    held[0]!.close()
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect((await open(t, EVENTS, bearer(t.keys.global))).status).toBe(200)
  })

  it("a person's sessions count together; another person is not held back", async () => {
    const t = await serve({ streamLimits: { eventsPerCaller: 3, perAddress: 100 } })
    const { ana, second, bo } = await t.run(Effect.gen(function* () {
      const ana = yield* makePerson("ana@example.com", { projects: [{ projectId: "p1", role: "viewer" }] })
      const again = yield* (yield* Sessions).start(ana.id)
      const bo = yield* makePerson("bo@example.com", { projects: [{ projectId: "p1", role: "viewer" }] })
      return { ana, second: `flagport_session=${again.token}`, bo }
    }))
    expect(second).not.toBe(ana.cookie)
    const statuses = []
    for (const cookie of [ana.cookie, ana.cookie, second]) statuses.push((await open(t, EVENTS, { cookie })).status)
    expect(statuses).toEqual([200, 200, 200])
    expectRefused(
      await open(t, EVENTS, { cookie: second }),
      "This API key or person already has 3 open event streams (FLAGPORT_EVENT_STREAMS_PER_CALLER); close one (a dashboard tab) or retry later."
    )
    expect((await open(t, EVENTS, { cookie: bo.cookie })).status).toBe(200)
  })
})

describe("the client address behind a trusted proxy (FLAGPORT_TRUST_PROXY)", () => {
  const ADDRESS_FULL = "This client address already has 2 open event streams (FLAGPORT_STREAMS_PER_ADDRESS); close one or retry later."

  it("event streams count the address the proxy reports: each client its own share, forged prefixes, several headers and IPv6 forms included", async () => {
    // The test's requests come from 127.0.0.1: the proxy, listed by name.
    const t = await serve({ trustProxy: "loopback", streamLimits: { perAddress: 2, eventsPerCaller: 100 } })
    const from = (address: string, key = t.keys.global) => open(t, EVENTS, { ...bearer(key), "x-forwarded-for": address })
    expect((await from("203.0.113.1")).status).toBe(200)
    expect((await from("6.6.6.6, 203.0.113.1", t.keys.scoped)).status).toBe(200)
    expectRefused(await from("203.0.113.1"), ADDRESS_FULL)
    // What the client wrote before the proxy's entry does not make it someone else.
    expectRefused(await from("198.51.100.7,203.0.113.1"), ADDRESS_FULL)
    expect(await rawStatus(t, EVENTS, ["authorization", `Bearer ${t.keys.global}`, "x-forwarded-for", "198.51.100.7", "x-forwarded-for", "203.0.113.1"])).toBe(429)
    // Other clients behind the same proxy still connect, each with its own share.
    expect((await from("203.0.113.2")).status).toBe(200)
    expect(await rawStatus(t, EVENTS, ["authorization", `Bearer ${t.keys.global}`, "x-forwarded-for", "203.0.113.1", "x-forwarded-for", "203.0.113.3"])).toBe(200)
    // One IPv6 client in the forms proxies write it.
    expect((await from("2001:db8::1")).status).toBe(200)
    expect((await from("[2001:DB8::1]:443")).status).toBe(200)
    expectRefused(await from("::ffff:203.0.113.1"), ADDRESS_FULL)
    expectRefused(await from("2001:db8:0:0:0:0:0:1"), ADDRESS_FULL)
    // Garbage where the proxy's entry should be counts as the proxy's own address (127.0.0.1).
    expect((await from("not-an-address")).status).toBe(200)
    expect((await from("")).status).toBe(200)
    expectRefused(await from("unknown"), ADDRESS_FULL)
    expectRefused(await open(t, EVENTS, bearer(t.keys.global)), ADDRESS_FULL)
  })

  it("change streams too, counted apart from event streams", async () => {
    const t = await serve({ trustProxy: 1, streamLimits: { perAddress: 2 } })
    const from = (address: string) => open(t, CHANGES, { ...bearer(t.keys.client), "x-forwarded-for": address })
    expect((await from("203.0.113.1")).status).toBe(200)
    expect((await from("203.0.113.1")).status).toBe(200)
    expectRefused(await from("6.6.6.6, 203.0.113.1"), "This client address already has 2 open streams (FLAGPORT_STREAMS_PER_ADDRESS); close one or retry later.")
    expect((await from("203.0.113.2")).status).toBe(200)
    expect((await open(t, EVENTS, { ...bearer(t.keys.global), "x-forwarded-for": "203.0.113.1" })).status).toBe(200)
  })

  it("never believed by default, nor from an address that is not a listed proxy: every client counts as the socket's address", async () => {
    for (const lane of [{}, { trustProxy: "192.0.2.0/24" }, { trustProxy: false }] satisfies Array<LaneConfig>) {
      const t = await serve({ ...lane, streamLimits: { perAddress: 2, eventsPerCaller: 100 } })
      const statuses = []
      for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
        statuses.push((await open(t, EVENTS, { ...bearer(t.keys.global), "x-forwarded-for": address })).status)
      }
      expect(statuses, JSON.stringify(lane)).toEqual([200, 200, 429])
      const changes = []
      for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
        changes.push((await open(t, CHANGES, { ...bearer(t.keys.client), "x-forwarded-for": address })).status)
      }
      expect(changes, JSON.stringify(lane)).toEqual([200, 200, 429])
    }
  })
})
