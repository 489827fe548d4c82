/**
 * Writes that never touch HTTP reach a running server's evaluation answers through the change
 * feed within 100 ms: made by an Effect program calling the Flags service in the server's own
 * process (SQLite), or by a second process on the same PostgreSQL. The server's revision poll is
 * slowed to one minute, so only the feed can bring a write over in time (the control case shows
 * a write the feed does not carry stays unseen). A second storage on the same SQLite file, as
 * another process has, is heard through the server's watch of the file (SqliteChangeFeed.ts).
 *
 * Over several trials: the change reaches the server's feed within 100 ms of the write's
 * acknowledgement (median); the evaluation answers (which then wait for one snapshot load: three
 * rounds of queries, the environment's parts read together) change within 100 ms in the best trial,
 * and both within 1 s in every one, where anything the one-minute poll brought would take a minute.
 * Not every trial within 100 ms, because a loaded 2-core machine (the whole suite running beside
 * this test) can stall any request by more than the bound: measured there, PostgreSQL's answers
 * came at 40 to 170 ms, most of it the machine, not the feed. The same holds for a revoked API key (the key cache's
 * TTL is also one minute here).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, ManagedRuntime, Scope } from "effect"
import { ChangeFeed } from "../../src/ports/ChangeFeed.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { startDispatcherProcess } from "../webhooks/fixtures/Process.js"
import { booleanFlag } from "../webhooks/fixtures/Flags.js"
import { request, startServer, type TestServer } from "./fixtures.js"
import { etagOf, openStream } from "./sse.js"

const BOUND_MS = 100
const WORST_MS = 1_000
const TRIALS = 6
const SLOW_POLL = { checkIntervalMs: 60_000, keyTtlMs: 60_000 }

let scope = Effect.runSync(Scope.make())
const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!()
  await Effect.runPromise(Scope.close(scope, Exit.void))
  scope = Effect.runSync(Scope.make())
})
const scoped = <A, E>(resource: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Scope.extend(resource, scope))
const serve = async (storage: Parameters<typeof startServer>[0]): Promise<TestServer> => {
  const server = await startServer(storage, { lane: SLOW_POLL })
  closers.push(server.close)
  return server
}

/** When (performance.now()) the server's change feed announced each flag key. */
const heardByServer = async (t: TestServer): Promise<Map<string, number>> => {
  const heard = new Map<string, number>()
  const subscribe = Effect.flatMap(ChangeFeed, (feed) =>
    feed.subscribe((change) => {
      if (change._tag === "ConfigChanged") for (const key of change.flagKeys) heard.set(key, performance.now())
    })
  )
  await t.run(Scope.extend(subscribe, scope))
  return heard
}

interface Trial {
  /** From the write's acknowledgement to the server's feed announcing it (negative: before). */
  readonly heard: number
  /** From the write's acknowledgement to the first answer that reflects it. */
  readonly served: number
}

/** The value half the trials are at or under (the lower of the two middle ones). */
const median = (values: ReadonlyArray<number>): number => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1]

/**
 * The feed announces the write within the bound in most trials, and the answer changes within it
 * in the best one: the path itself is fast. Every trial stays under the worst bound (the slowed
 * poll would take a minute), so no answer came from the safety net. The suite shares two cores with
 * itself, so a single trial may be slowed by other files' work; the medians and the best trial say
 * what the path costs.
 */
const expectFresh = (trials: ReadonlyArray<Trial>) => {
  expect(median(trials.map((trial) => trial.heard))).toBeLessThan(BOUND_MS)
  expect(Math.min(...trials.map((trial) => trial.served))).toBeLessThan(BOUND_MS)
  expect(trials.filter((trial) => !(trial.heard < WORST_MS && trial.served < WORST_MS))).toEqual([])
}

/** The status of evaluating `flagKey` in p1/development through the server. */
const evaluate = async (t: TestServer, flagKey: string) =>
  (await request(t.url, "GET", `/v1/flags/${flagKey}/eval?environment=development&key=u`, { key: t.keys.client })).status

/** Milliseconds from now until the server evaluates `flagKey` (polling every 5 ms, up to 1 s). */
const timeUntilServed = async (t: TestServer, flagKey: string): Promise<number> => {
  const start = performance.now()
  while (performance.now() - start < 1_000) {
    if ((await evaluate(t, flagKey)) === 200) return performance.now() - start
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  return Number.POSITIVE_INFINITY
}

describe("a write through the services alone reaches a running server's evaluations", () => {
  it("SQLite, same process (the in-process feed), within 100 ms", async () => {
    const t = await serve(StorageLayer.fromDatabaseUrl(`sqlite:${await scoped(freshSqliteFile)}`))
    const heard = await heardByServer(t)
    const trials: Array<Trial> = []
    for (let trial = 0; trial < TRIALS; trial++) {
      const key = `sqlite-${trial}`
      expect(await evaluate(t, key)).toBe(404) // the project's snapshot is now cached without it
      await t.run(Effect.flatMap(Flags, (flags) => flags.create("p1", booleanFlag(key))))
      const acknowledged = performance.now()
      const served = await timeUntilServed(t, key)
      trials.push({ heard: (heard.get(key) ?? Number.POSITIVE_INFINITY) - acknowledged, served })
    }
    expectFresh(trials)
  })

  it("SQLite, written by a second storage on the same file (the file watch): every trial within 1 s", async () => {
    const file = await scoped(freshSqliteFile)
    const t = await serve(StorageLayer.fromDatabaseUrl(`sqlite:${file}`))
    // As another process: its own connections and feed, which announces nothing to the server.
    const other = ManagedRuntime.make(StorageLayer.fromDatabaseUrl(`sqlite:${file}`, { listen: false }))
    closers.push(() => other.dispose())
    const served: Array<number> = []
    for (let trial = 0; trial < TRIALS; trial++) {
      const key = `watched-${trial}`
      expect(await evaluate(t, key)).toBe(404)
      await other.runPromise(Effect.flatMap(Flags, (flags) => flags.create("p1", booleanFlag(key))))
      served.push(await timeUntilServed(t, key))
    }
    expect(served.filter((ms) => !(ms < WORST_MS))).toEqual([])
  })

  it("control: a write the server's feed does not carry stays unseen (the poll is really slowed)", async () => {
    const file = await scoped(freshSqliteFile)
    // `listen: false`: the server does not watch the file for other processes' writes.
    const t = await serve(StorageLayer.fromDatabaseUrl(`sqlite:${file}`, { listen: false }))
    // A second storage on the same file has a feed of its own, which the server does not hear.
    const other = ManagedRuntime.make(StorageLayer.fromDatabaseUrl(`sqlite:${file}`))
    closers.push(() => other.dispose())
    expect(await evaluate(t, "unheard")).toBe(404)
    await other.runPromise(Effect.flatMap(Flags, (flags) => flags.create("p1", booleanFlag("unheard"))))
    await new Promise((resolve) => setTimeout(resolve, 3 * BOUND_MS))
    expect(await evaluate(t, "unheard")).toBe(404)
  })

  it("PostgreSQL, written by a second process (LISTEN/NOTIFY), within 100 ms", async () => {
    const databaseUrl = await scoped(freshPostgresUrl)
    const t = await serve(StorageLayer.fromDatabaseUrl(databaseUrl))
    const heard = await heardByServer(t)
    const writer = await scoped(startDispatcherProcess({ DATABASE_URL: databaseUrl }))
    const trials: Array<Trial> = []
    for (let trial = 0; trial < TRIALS; trial++) {
      const key = `postgres-${trial}`
      expect(await evaluate(t, key)).toBe(404)
      writer.send(`WRITE p1 ${key}`)
      await writer.waitForLine(new RegExp(`^ACK ${key}$`), 30_000)
      const acknowledged = performance.now()
      const served = await timeUntilServed(t, key)
      trials.push({ heard: (heard.get(key) ?? Number.POSITIVE_INFINITY) - acknowledged, served })
    }
    expectFresh(trials)
  }, 180_000)
})

describe("a write only the revision poll finds", () => {
  it("reaches the server's streams within the recheck's second, as an announced one does", async () => {
    const file = await scoped(freshSqliteFile)
    // The default poll and key TTL, and no watch of the file: only the poll can find the write.
    const t = await startServer(StorageLayer.fromDatabaseUrl(`sqlite:${file}`, { listen: false }))
    closers.push(t.close)
    const other = ManagedRuntime.make(StorageLayer.fromDatabaseUrl(`sqlite:${file}`, { listen: false }))
    closers.push(() => other.dispose())
    const stream = await openStream(t.url, "/v1/stream?environment=development", { authorization: `Bearer ${t.keys.client}` })
    closers.push(async () => stream.close())
    const before = etagOf(await stream.event(0))
    await other.runPromise(Effect.flatMap(Flags, (flags) => flags.create("p1", booleanFlag("polled"))))
    const written = performance.now()
    const after = etagOf(await stream.event(1, 3_000))
    expect(after).not.toBe(before)
    expect(performance.now() - written).toBeLessThan(1_000 + 250 + WORST_MS) // a recheck, a revision check, a load
  })
})

describe("a key revoked through the services alone stops working on a running server at once", () => {
  /** A fresh client key of p1, made through the services, and proven cached by one evaluation. */
  const cachedKey = async (t: TestServer) => {
    const created = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.create({ type: "client", projectId: "p1" })))
    await t.run(Effect.flatMap(Flags, (flags) => Effect.ignore(flags.create("p1", booleanFlag("keyed")))))
    const status = async () =>
      (await request(t.url, "GET", "/v1/flags/keyed/eval?environment=development&key=u", { key: created.secret })).status
    expect(await status()).toBe(200)
    return { id: created.apiKey.id, status }
  }

  /** Milliseconds from now until `status` answers 401 (polling every 5 ms, up to 1 s). */
  const timeUntilRefused = async (status: () => Promise<number>): Promise<number> => {
    const start = performance.now()
    while (performance.now() - start < WORST_MS) {
      if ((await status()) === 401) return performance.now() - start
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return Number.POSITIVE_INFINITY
  }

  it("SQLite, same process: refused on the next request (the key cache's TTL is one minute)", async () => {
    const t = await serve(StorageLayer.fromDatabaseUrl(`sqlite:${await scoped(freshSqliteFile)}`))
    const key = await cachedKey(t)
    await t.run(Effect.flatMap(ApiKeys, (keys) => keys.revoke(key.id)))
    expect(await key.status()).toBe(401)
  })

  it("SQLite, revoked by a second storage on the same file (the file watch): refused within 1 s", async () => {
    const file = await scoped(freshSqliteFile)
    const t = await serve(StorageLayer.fromDatabaseUrl(`sqlite:${file}`))
    const other = ManagedRuntime.make(StorageLayer.fromDatabaseUrl(`sqlite:${file}`, { listen: false }))
    closers.push(() => other.dispose())
    const key = await cachedKey(t)
    await other.runPromise(Effect.flatMap(ApiKeys, (keys) => keys.revoke(key.id)))
    expect(await timeUntilRefused(key.status)).toBeLessThan(WORST_MS)
  })

  it("control: a revocation the server's feed does not carry leaves the cached key working", async () => {
    const file = await scoped(freshSqliteFile)
    // `listen: false`: the server does not watch the file for other processes' writes.
    const t = await serve(StorageLayer.fromDatabaseUrl(`sqlite:${file}`, { listen: false }))
    const other = ManagedRuntime.make(StorageLayer.fromDatabaseUrl(`sqlite:${file}`))
    closers.push(() => other.dispose())
    const key = await cachedKey(t)
    await other.runPromise(Effect.flatMap(ApiKeys, (keys) => keys.revoke(key.id)))
    await new Promise((resolve) => setTimeout(resolve, 3 * BOUND_MS))
    expect(await key.status()).toBe(200)
  })

  it("PostgreSQL, revoked by a second process (LISTEN/NOTIFY): refused within 100 ms (median), 1 s (every trial)", async () => {
    const databaseUrl = await scoped(freshPostgresUrl)
    const t = await serve(StorageLayer.fromDatabaseUrl(databaseUrl))
    const writer = await scoped(startDispatcherProcess({ DATABASE_URL: databaseUrl }))
    const refused: Array<number> = []
    for (let trial = 0; trial < TRIALS; trial++) {
      const key = await cachedKey(t)
      writer.send(`REVOKE ${key.id}`)
      await writer.waitForLine(new RegExp(`^REVOKED ${key.id}$`), 30_000)
      refused.push(await timeUntilRefused(key.status))
    }
    expect(median(refused)).toBeLessThan(BOUND_MS)
    expect(refused.filter((ms) => !(ms < WORST_MS))).toEqual([])
  }, 180_000)
})
