/**
 * GET /health: liveness plus a real database check (the storage's `StorageHealth` probe, a
 * trivial query, with a short timeout). When the database cannot answer, 503 with the error envelope; the cause goes
 * to the log only.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { StorageHealth } from "../../src/ports/StorageHealth.js"
import * as Errors from "./Errors.js"

export interface HealthShape {
  readonly check: Effect.Effect<{ readonly status: "ok"; readonly database: "ok" }, Errors.Unavailable>
}

export class Health extends Context.Tag("@flagport/http/Health")<Health, HealthShape>() {}

export const CHECK_TIMEOUT = Duration.seconds(2)

export const layer = Layer.effect(
  Health,
  Effect.gen(function* () {
    const storage = yield* StorageHealth
    return Health.of({
      check: storage.check.pipe(
        Effect.timeoutFail({ duration: CHECK_TIMEOUT, onTimeout: () => new Error("database check timed out") }),
        Effect.as({ status: "ok" as const, database: "ok" as const }),
        Effect.catchAllCause((cause) =>
          Effect.logError("Health check: the database is unavailable", cause).pipe(
            Effect.zipRight(Effect.fail(Errors.unavailable("The database is unavailable.")))
          )
        )
      )
    })
  })
)
