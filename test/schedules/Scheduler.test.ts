import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import { type Actor, CurrentActor } from "../../src/domain/audit/Actor.js"
import { formatTimestamp } from "../../src/domain/definitions/Ids.js"
import { Audit } from "../../src/services/audit/Audit.js"
import { Environments } from "../../src/services/projects/Environments.js"
import { Flags } from "../../src/services/flags/Flags.js"
import { Projects } from "../../src/services/projects/Projects.js"
import * as Scheduler from "../../src/services/schedules/Scheduler.js"
import { Schedules } from "../../src/services/schedules/Schedules.js"

/**
 * The scheduler loop on Effect's TestClock (memory storage): it applies a schedule within its poll
 * interval after `at`, not before, and runs the targeting use case as the schedule's actor.
 */

/** Flags that remember the actor of every targeting write, then do it. */
const actorsSeen: Array<Actor> = []
const recordingFlags = Layer.effect(
  Flags,
  Effect.map(Flags, (flags) =>
    Flags.of({
      ...flags,
      replaceTargeting: (...args) =>
        Effect.flatMap(CurrentActor, (actor) => Effect.zipRight(Effect.sync(() => void actorsSeen.push(actor)), flags.replaceTargeting(...args)))
    })
  )
)

const given = Effect.gen(function* () {
  yield* (yield* Projects).create({ id: "p", name: "P" })
  yield* (yield* Environments).create("p", { key: "production", name: "Production" })
  yield* (yield* Flags).create("p", {
    key: "flag",
    type: "boolean",
    variations: [
      { key: "on", value: true },
      { key: "off", value: false }
    ]
  })
})

const statusOf = (id: string) => Effect.map(Effect.flatMap(Schedules, (s) => s.list("p", "flag")), (all) => all.find((s) => s.id === id)?.status)

/** Lets the scheduler fiber run what the clock made due (memory storage: no real waiting). */
const settle = Effect.repeatN(Effect.yieldNow(), 50)

describe("scheduler on the TestClock", () => {
  it.scoped("applies a schedule within the poll interval after its time, never before, as the actor `schedule`", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.parse("2026-11-23T08:00:00.000Z"))
      const storage = yield* Layer.build(StorageLayer.memoryStorage)
      const services = Layer.provideMerge(recordingFlags, Layer.succeedContext(storage))
      const run = <A, E>(effect: Effect.Effect<A, E, StorageLayer.Storage>) => Effect.provide(effect, services)
      yield* run(given)
      const at = "2026-11-23T08:00:10.000Z"
      const schedule = yield* run(
        Effect.flatMap(Schedules, (s) =>
          s.create("p", "flag", { environment: "production", at, targeting: { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] } })
        ).pipe(Effect.provideService(CurrentActor, { type: "key", keyId: "key-1", keyName: "release bot" }))
      )
      expect(schedule.actor).toEqual({ type: "key", keyId: "key-1", keyName: "release bot" })
      yield* Layer.build(Scheduler.layerWith({ pollInterval: "1 second" }).pipe(Layer.provide(services)))

      yield* TestClock.adjust("9 seconds")
      yield* settle
      expect(yield* run(statusOf(schedule.id))).toBe("pending")
      expect(actorsSeen).toEqual([])

      yield* TestClock.adjust("2 seconds")
      yield* settle
      expect(yield* run(statusOf(schedule.id))).toBe("applied")
      expect(actorsSeen).toEqual([{ type: "schedule", keyId: "key-1", keyName: "release bot" }])
      // The audit log records the change as the PUT's, made by the schedule.
      const [latest] = (yield* run(Effect.flatMap(Audit, (a) => a.list("p", { resourceType: "flag", resourceKey: "flag", limit: 1 })))).data
      expect(latest).toMatchObject({ action: "targeting.updated", environment: "production", actor: { type: "schedule", keyId: "key-1", keyName: "release bot" } })
      const flag = yield* run(Effect.flatMap(Flags, (f) => f.get("p", "flag")))
      expect(flag.configs.find((c) => c.environmentKey === "production")).toMatchObject({ enabled: true, defaultVariationKey: "on" })
      expect(flag.updatedAt <= formatTimestamp(Date.parse(at) + 2000)).toBe(true)

      // Applied once: more rounds change nothing.
      yield* TestClock.adjust("1 minute")
      yield* settle
      expect(actorsSeen).toHaveLength(1)
      expect((yield* run(Effect.flatMap(Flags, (f) => f.get("p", "flag")))).version).toBe(2)
    }))
})
