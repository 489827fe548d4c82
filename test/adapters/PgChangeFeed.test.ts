/**
 * The PostgreSQL change feed between two feeds on one database (as two processes would hold):
 * a change reaches the other feed's listeners and the publisher's own exactly once (its echo is
 * skipped), a foreign or malformed notification is ignored, and a change too long for one
 * notification is widened rather than lost. Each change heard from the other feed is measured
 * (flagport_change_feed_lag_seconds, from the sender's clock in the payload).
 */
import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, LogLevel } from "effect"
import * as PgChangeFeed from "../../adapters/sql-pg/PgChangeFeed.js"
import * as PgStorage from "../../adapters/sql-pg/PgStorage.js"
import { type Change, ChangeFeed, type ConfigChanged } from "../../src/ports/ChangeFeed.js"
import * as Instruments from "../../adapters/metrics/Instruments.js"
import { freshPostgresUrl } from "../fixtures/databases.js"

const change = (projectId: string, flagKeys: ReadonlyArray<string> = ["checkout"]): ConfigChanged => ({
  _tag: "ConfigChanged",
  projectId,
  revision: 7,
  environments: ["production"],
  kind: "targeting",
  flagKeys,
  segmentKeys: []
})

/** A feed over its own connection pool, with a listener recording what it hears. */
const feedOn = (url: string) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(Layer.provideMerge(PgChangeFeed.layer, PgStorage.layer({ url, maxConnections: 2 })))
    const feed = yield* Effect.provide(ChangeFeed, context)
    const heard: Array<Change> = []
    yield* feed.subscribe((c) => void heard.push(c))
    const notifyRaw = (payload: string) =>
      Effect.provide(Effect.flatMap(PgClient.PgClient, (pg) => pg`SELECT pg_notify(${PgChangeFeed.CHANNEL}, ${payload})`), context)
    return { feed, heard, notifyRaw }
  })

/** Waits (up to 5 s) until `heard` holds `count` changes. */
const waitFor = (heard: ReadonlyArray<Change>, count: number) =>
  Effect.promise(async () => {
    const start = Date.now()
    while (heard.length < count && Date.now() - start < 5_000) await new Promise((resolve) => setTimeout(resolve, 10))
  })

const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))

describe("PgChangeFeed", () => {
  it.scopedLive("two feeds on one database: delivered to both, once each; garbage ignored; long changes widened", () =>
    Effect.gen(function* () {
      const url = yield* freshPostgresUrl
      const a = yield* feedOn(url)
      const b = yield* feedOn(url)
      yield* settle // both LISTENs established
      const lagCount = () => Instruments.changeFeedLagSeconds.unsafeValue([]).count
      const lagsBefore = lagCount()

      yield* a.feed.publish(change("p1"))
      expect(a.heard).toEqual([change("p1")]) // locally, before publish returned
      yield* waitFor(b.heard, 1)
      yield* settle
      expect(b.heard).toEqual([change("p1")])
      expect(a.heard).toHaveLength(1) // its own echo skipped
      // Heard from another feed: one lag measured (its own echo is not).
      expect(lagCount()).toBe(lagsBefore + 1)
      expect(Instruments.changeFeedLagSeconds.unsafeValue([]).max).toBeLessThan(5)

      yield* a.notifyRaw("not json").pipe(Logger.withMinimumLogLevel(LogLevel.None))
      yield* a.notifyRaw(JSON.stringify({ origin: "x", change: { _tag: "Unknown" } })).pipe(Logger.withMinimumLogLevel(LogLevel.None))
      const long = change("p2", Array.from({ length: 400 }, (_, i) => `flag-with-a-rather-long-key-${i}`))
      yield* a.feed.publish(long)
      yield* waitFor(b.heard, 2)
      yield* settle
      expect(b.heard).toEqual([change("p1"), { ...long, environments: "all", flagKeys: [] }])
      expect(a.heard).toEqual([change("p1"), long])
    })
  )
})
