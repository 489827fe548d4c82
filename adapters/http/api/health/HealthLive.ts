/**
 * GET /health: liveness plus a real database check, through the `Health` service (a trivial
 * query with a short timeout). When the database cannot answer, 503 with the error envelope; the
 * cause goes to the log only.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Health } from "../../../../src/services/operations/Health.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"

const check = Effect.flatMap(Health, (health) => health.check).pipe(
  Effect.catchAllCause((cause) =>
    Effect.logError("Health check: the database is unavailable", cause).pipe(
      Effect.zipRight(Effect.fail(Errors.unavailable("The database is unavailable.")))
    )
  )
)

export const HealthLive = HttpApiBuilder.group(FlagportApi, "health", (handlers) =>
  handlers.handle("health", () => check)
)
