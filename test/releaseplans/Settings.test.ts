/**
 * The scheduler's lease and the plans' check interval from the environment: defaults, a value,
 * and values refused at start (the release plan process tests and the HTTP simulation set them).
 */
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { checkEverySecondsConfig, GuardrailCheckEvery, layerConfig } from "../../src/services/releaseplans/PlanSettings.js"
import { leaseSecondsConfig } from "../../src/services/schedules/Scheduler.js"

const read = <A>(config: Effect.Effect<A, unknown>, env: Record<string, string>) =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(config, ConfigProvider.fromMap(new Map(Object.entries(env))))))

describe("release plan settings", () => {
  it("FLAGPORT_SCHEDULER_LEASE_SECONDS: 60 by default, a number of seconds of at least 1", () => {
    expect(read(leaseSecondsConfig, {})).toEqual(Either.right(60))
    expect(read(leaseSecondsConfig, { FLAGPORT_SCHEDULER_LEASE_SECONDS: "2.5" })).toEqual(Either.right(2.5))
    for (const bad of ["0", "0.5", "-3", "soon"]) expect(Either.isLeft(read(leaseSecondsConfig, { FLAGPORT_SCHEDULER_LEASE_SECONDS: bad })), bad).toBe(true)
  })

  it("FLAGPORT_RELEASE_PLAN_CHECK_SECONDS: 60 by default, at least 1; the layer sets the interval in milliseconds", () => {
    expect(read(checkEverySecondsConfig, {})).toEqual(Either.right(60))
    for (const bad of ["0", "-1", "often"]) expect(Either.isLeft(read(checkEverySecondsConfig, { FLAGPORT_RELEASE_PLAN_CHECK_SECONDS: bad })), bad).toBe(true)
    const set = read(Effect.provide(GuardrailCheckEvery, layerConfig), { FLAGPORT_RELEASE_PLAN_CHECK_SECONDS: "1.5" })
    expect(set).toEqual(Either.right(1_500))
    expect(read(GuardrailCheckEvery, {})).toEqual(Either.right(60_000))
  })
})
