import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StorageError } from "../../ports/StorageError.js"
import { StorageHealth } from "../../ports/StorageHealth.js"

/** What a healthy Flagport reports. */
export interface HealthReport {
  readonly status: "ok"
  readonly database: "ok"
}

export interface HealthShape {
  /**
   * Healthy when the storage answers a trivial query within `CHECK_TIMEOUT`; otherwise the
   * storage's failure (a slow database counts as unavailable, so a probe never hangs).
   */
  readonly check: Effect.Effect<HealthReport, StorageError>
}

export class Health extends Context.Tag("@flagport/services/Health")<Health, HealthShape>() {}

export const CHECK_TIMEOUT = Duration.seconds(2)

export const make = Effect.gen(function* () {
  const storage = yield* StorageHealth
  return Health.of({
    check: storage.check.pipe(
      Effect.timeoutFail({ duration: CHECK_TIMEOUT, onTimeout: () => new StorageError({ message: "database check timed out" }) }),
      Effect.as({ status: "ok" as const, database: "ok" as const })
    )
  })
})

export const layer = Layer.effect(Health, make)
