import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { EventOutbox } from "../../src/ports/EventOutbox.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { Schedules } from "../../src/services/schedules/Schedules.js"
import { freshPostgresUrl } from "../fixtures/databases.js"

/**
 * Two schedulers, each with its own storage (its own connection pool) on ONE PostgreSQL, as two
 * server processes would be: every schedule is applied exactly once: one version step and one
 * `targeting.updated` event per schedule. With a lease of zero the schedulers take schedules from
 * each other all the time, so only the settlement in the change's own transaction keeps it once.
 */

const SCHEDULES = 24
const turnOn = { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] }

const seed = Effect.gen(function* () {
  yield* (yield* Projects).create({ id: "p", name: "P" })
  yield* (yield* Environments).create("p", { key: "production", name: "Production" })
  const flags = yield* Flags
  const schedules = yield* Schedules
  for (let i = 0; i < SCHEDULES; i++) {
    yield* flags.create("p", { key: `f${i}`, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    yield* schedules.create("p", `f${i}`, { environment: "production", at: new Date(Date.now() - 1000).toISOString(), targeting: turnOn })
  }
})

const allSettled = Effect.gen(function* () {
  const schedules = yield* Schedules
  for (;;) {
    const statuses = yield* Effect.forEach(Array.from({ length: SCHEDULES }, (_, i) => `f${i}`), (flag) =>
      Effect.map(schedules.list("p", flag), (list) => list[0]!.status)
    )
    if (statuses.every((s) => s !== "pending")) return statuses
    yield* Effect.sleep("50 millis")
  }
})

describe("two schedulers on one PostgreSQL", () => {
  for (const lease of ["60 seconds", "0 millis"] as const) {
    it.live(`apply every schedule exactly once (lease ${lease})`, () =>
      Effect.gen(function* () {
        const url = yield* freshPostgresUrl
        const first = yield* Layer.build(StorageLayer.fromDatabaseUrl(url))
        const second = yield* Layer.build(StorageLayer.fromDatabaseUrl(url))
        yield* Effect.provide(seed, first)
        const options = { ...Scheduler.defaultOptions, pollInterval: "10 millis", batchSize: 5, lease } as const
        const runners = yield* Effect.all(
          [
            Effect.fork(Effect.provide(Scheduler.run("first", options), first)),
            Effect.fork(Effect.provide(Scheduler.run("second", options), second))
          ]
        )
        const statuses = yield* Effect.provide(allSettled, first).pipe(Effect.timeout("60 seconds"))
        yield* Effect.sleep("300 millis") // a late duplicate would have landed by now
        yield* Effect.forEach(runners, Fiber.interrupt)

        expect(statuses).toEqual(Array(SCHEDULES).fill("applied"))
        const flags = yield* Effect.provide(Effect.flatMap(Flags, (f) => f.list("p")), second)
        expect(flags.map((f) => f.version)).toEqual(Array(SCHEDULES).fill(2))
        const events = yield* Effect.provide(Effect.flatMap(EventOutbox, (o) => o.list("p")), second)
        const applied = events.filter((e) => e.event.type === "targeting.updated").map((e) => ("flag" in e.event.data ? e.event.data.flag.key : e.event.type))
        expect(applied.sort()).toEqual(Array.from({ length: SCHEDULES }, (_, i) => `f${i}`).sort())
      }).pipe(Effect.scoped), 120_000)
  }
})
