import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as WebhooksService from "../../src/services/webhooks/Webhooks.js"
import { Webhooks } from "../../src/services/webhooks/Webhooks.js"
import { freshPostgresUrl, freshSqliteFile } from "../fixtures/databases.js"
import { booleanFlag } from "./fixtures/Flags.js"
import { type Received, receiver } from "./fixtures/Receiver.js"
import { sigkill, startDispatcherProcess } from "./fixtures/Process.js"

/**
 * Real processes (test/webhooks/fixtures/dispatcher-process.ts) against real databases:
 * at-least-once delivery across SIGKILL, and no duplicates with two dispatchers on one PostgreSQL.
 */

const withStore = <A, E, R>(databaseUrl: string, effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, Layer.provideMerge(WebhooksService.layer, StorageLayer.fromDatabaseUrl(databaseUrl)))

const seed = (databaseUrl: string, urls: ReadonlyArray<string>) =>
  withStore(
    databaseUrl,
    Effect.gen(function* () {
      yield* (yield* Projects).create({ id: "p", name: "P" })
      yield* (yield* Environments).create("p", { key: "production", name: "Production" })
      const webhooks = yield* Webhooks
      return yield* Effect.forEach(urls, (url) =>
        Effect.map(webhooks.create("p", { url, events: ["flag.created"], secret: "crash-test-secret" }), (w) => w.id)
      )
    })
  )

const flagKey = (r: Received) => JSON.parse(r.body).data.flag.key as string
const realSleep = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

const databases = {
  sqlite: Effect.map(freshSqliteFile, (file) => `sqlite:${file}`),
  postgres: freshPostgresUrl
}

describe("webhook dispatcher processes", () => {
  for (const [name, database] of Object.entries(databases)) {
    it.live(`${name}: events recorded before a SIGKILL are delivered, in order, after restart`, () =>
      Effect.gen(function* () {
        const url = yield* database
        // The first POST never gets an answer: the process dies while that delivery is in flight.
        const r = yield* receiver((_, i) => (i === 0 ? "hang" : 200))
        const [hookId] = yield* seed(url, [r.url])
        const env = { DATABASE_URL: url, FLAGPORT_TEST_POLL_MS: "50", FLAGPORT_TEST_LEASE_MS: "2000" }

        const first = yield* startDispatcherProcess(env)
        first.send("WRITE p in-flight")
        yield* Effect.promise(() => first.waitForLine(/^ACK in-flight$/, 90_000))
        yield* Effect.promise(() => r.waitFor(1, 90_000))
        first.send("WRITE p queued")
        yield* Effect.promise(() => first.waitForLine(/^ACK queued$/, 90_000))
        yield* sigkill(first) // right after the acknowledged write
        expect(r.received.map(flagKey)).toEqual(["in-flight"])

        // A new process takes over once the dead one's lease has expired.
        yield* startDispatcherProcess(env)
        yield* Effect.promise(() => r.waitFor(3, 90_000))
        yield* realSleep(500)
        expect(r.received.map(flagKey)).toEqual(["in-flight", "in-flight", "queued"])
        // Same event, same webhook-id on the retry.
        expect(r.received[1]!.headers["webhook-id"]).toBe(r.received[0]!.headers["webhook-id"])

        const log = yield* withStore(url, Effect.flatMap(Webhooks, (w) => w.deliveries("p", hookId!)))
        expect(log.map((d) => d.status)).toEqual(["succeeded", "succeeded"])
      }).pipe(Effect.scoped), 300_000)
  }

  it.live("postgres: two dispatcher processes send every delivery exactly once, in order per webhook", () =>
    Effect.gen(function* () {
      const url = yield* freshPostgresUrl
      const r = yield* receiver(() => ({ status: 200, delayMs: 15 }))
      const hooks = 3
      const events = 20
      yield* seed(url, Array.from({ length: hooks }, (_, i) => `${r.url}/${i}`))
      const env = { DATABASE_URL: url, FLAGPORT_TEST_POLL_MS: "10" }
      const a = yield* startDispatcherProcess(env)
      const b = yield* startDispatcherProcess(env)

      const keys = Array.from({ length: events }, (_, i) => `flag-${String(i).padStart(2, "0")}`)
      yield* withStore(
        url,
        Effect.forEach(keys, (key) => Effect.flatMap(Flags, (flags) => flags.create("p", booleanFlag(key))))
      )
      yield* Effect.promise(() => r.waitFor(hooks * events, 120_000))
      yield* realSleep(1000)

      expect(r.received).toHaveLength(hooks * events)
      for (let i = 0; i < hooks; i++) {
        const mine = r.received.filter((x) => x.path === `/hook/${i}`)
        expect(mine.map(flagKey)).toEqual(keys)
      }
      const sent = (p: typeof a) => p.lines.filter((l) => l.startsWith("SENT ")).length
      expect(sent(a) + sent(b)).toBe(hooks * events)
      expect(sent(a)).toBeGreaterThan(0)
      expect(sent(b)).toBeGreaterThan(0)
    }).pipe(Effect.scoped), 300_000)
})
