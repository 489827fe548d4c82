import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Either, Layer, Option, TestClock } from "effect"
import { envFrom, eventually, realPause } from "../fixtures/RealTime.js"
import * as StorageLayer from "../../adapters/app/Composition.js"
import type { AuditEntry } from "../../src/domain/audit/AuditEntry.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import * as AuditRetention from "../../src/services/audit/AuditRetention.js"

/**
 * Audit retention as the server runs it: nothing by default (entries are kept forever); with
 * FLAGPORT_AUDIT_RETENTION_DAYS, a prune at start and then every hour (TestClock). What one prune
 * deletes on every backend is pinned by the AuditLog contract (test/contract/AuditLog.contract.ts).
 */

const DAY = 86_400_000
const T0 = Date.parse("2026-06-01T00:00:00.000Z")
const iso = (ms: number) => new Date(ms).toISOString()

const entryAt = (id: string, at: number): AuditEntry => ({
  id,
  projectId: "p",
  at: iso(at),
  actor: { type: "cli" },
  action: "flag.updated",
  resource: { type: "flag", key: "f" },
  before: null,
  after: null
})

const ids = Effect.flatMap(AuditLog, (log) => Effect.map(log.list("p", {}, 1000), (rows) => rows.map((r) => r.entry.id).reverse()))

/** Entries 40 days old, 30 days old less ten minutes, and fresh, at T0. */
const givenEntries = Effect.gen(function* () {
  yield* TestClock.setTime(T0)
  const log = yield* AuditLog
  yield* log.append(entryAt("old", T0 - 40 * DAY))
  yield* log.append(entryAt("edge", T0 - 30 * DAY + 10 * 60_000))
  yield* log.append(entryAt("fresh", T0))
})

const withRetention = (env: Record<string, string>) =>
  Layer.build(AuditRetention.layerConfig().pipe(Layer.provide(Layer.setConfigProvider(envFrom(env)))))

describe("audit retention", () => {
  it.effect("with FLAGPORT_AUDIT_RETENTION_DAYS=30: prunes at start and then every hour", () =>
    Effect.gen(function* () {
      yield* givenEntries
      yield* withRetention({ FLAGPORT_AUDIT_RETENTION_DAYS: "30" })
      expect(yield* eventually(Effect.map(ids, (list) => !list.includes("old")))).toBe(true)
      expect(yield* ids).toEqual(["edge", "fresh"])
      // No second run before the hour is up...
      yield* TestClock.adjust("59 minutes")
      yield* realPause(100)
      expect(yield* ids).toEqual(["edge", "fresh"])
      // ...and at the hour `edge` has passed the 30 days.
      yield* TestClock.adjust("1 minute")
      expect(yield* eventually(Effect.map(ids, (list) => list.length === 1))).toBe(true)
      expect(yield* ids).toEqual(["fresh"])
    }).pipe(Effect.provide(StorageLayer.memoryStorage), Effect.scoped))

  it.effect("unset: entries are kept forever", () =>
    Effect.gen(function* () {
      yield* givenEntries
      yield* withRetention({})
      yield* TestClock.adjust("3 hours")
      yield* realPause(100)
      expect(yield* ids).toEqual(["old", "edge", "fresh"])
      expect(yield* AuditRetention.prune(Duration.infinity, 1000)).toBe(0)
    }).pipe(Effect.provide(StorageLayer.memoryStorage), Effect.scoped))

  it.effect("prune works in batches until nothing older is left; a batch size below 1 still finishes", () =>
    Effect.gen(function* () {
      yield* givenEntries
      const log = yield* AuditLog
      for (let i = 0; i < 5; i++) yield* log.append(entryAt(`older-${i}`, T0 - (50 + i) * DAY))
      expect(yield* AuditRetention.prune(Duration.days(30), 2)).toBe(6)
      expect(yield* ids).toEqual(["edge", "fresh"])
      expect(yield* AuditRetention.prune(Duration.days(1), 0)).toBe(1)
      expect(yield* ids).toEqual(["fresh"])
    }).pipe(Effect.provide(StorageLayer.memoryStorage), Effect.scoped))
})

describe("FLAGPORT_AUDIT_RETENTION_DAYS", () => {
  const read = (env: Record<string, string>) => AuditRetention.config.pipe(Effect.withConfigProvider(envFrom(env)), Effect.either)

  it.effect("is optional (keep forever) and takes any whole number of days from 1", () =>
    Effect.gen(function* () {
      expect(yield* read({})).toEqual(Either.right(Option.none()))
      expect(yield* read({ FLAGPORT_AUDIT_RETENTION_DAYS: "1" })).toEqual(Either.right(Option.some(1)))
      expect(yield* read({ FLAGPORT_AUDIT_RETENTION_DAYS: "365" })).toEqual(Either.right(Option.some(365)))
    }))

  it.effect("0, negative, fractional or non-numeric values are a configuration error naming the variable", () =>
    Effect.gen(function* () {
      for (const value of ["0", "-1", "1.5", "thirty", "30d"]) {
        const result = yield* read({ FLAGPORT_AUDIT_RETENTION_DAYS: value })
        expect(Either.isLeft(result), value).toBe(true)
        if (Either.isLeft(result)) expect(String(result.left), value).toContain("FLAGPORT_AUDIT_RETENTION_DAYS")
      }
    }))

  it.effect("a bad value stops the retention layer (and so the server) from starting", () =>
    Effect.gen(function* () {
      const error = yield* withRetention({ FLAGPORT_AUDIT_RETENTION_DAYS: "0" }).pipe(Effect.flip)
      expect(String(error)).toContain("FLAGPORT_AUDIT_RETENTION_DAYS")
    }).pipe(Effect.provide(StorageLayer.memoryStorage), Effect.scoped))
})
