/**
 * The schedules handlers. A key bound to an environment writes, cancels and reads only that
 * environment's schedules (a flag's list leaves the others out; the pending list of another
 * environment is 403).
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { recordSeen } from "../../../../src/domain/auth/EnvironmentView.js"
import * as Policy from "../../../../src/domain/auth/Policy.js"
import { Schedules } from "../../../../src/services/schedules/Schedules.js"
import { FlagportApi } from "../Api.js"
import { mapped, mayRead, mayWrite, seenEnvironment } from "../Calling.js"
import { ManagementAccess } from "../Security.js"

/**
 * Schedules remember who made them (the scheduler later acts as `{ type: "schedule", keyId, keyName }`):
 * the create runs as the authenticated key, as every call through `mapped` does.
 */
export const SchedulesLive = HttpApiBuilder.group(FlagportApi, "schedules", (handlers) =>
  handlers
    .handle("create", ({ path, payload }) =>
      Effect.zipRight(mayWrite(payload.environment), Effect.flatMap(Schedules, (schedules) => mapped(schedules.create(path.projectId, path.flagKey, payload))))
    )
    .handle("list", ({ path }) =>
      Effect.flatMap(seenEnvironment, (seen) =>
        Effect.flatMap(Schedules, (schedules) =>
          Effect.map(mapped(schedules.list(path.projectId, path.flagKey)), (data) => ({ data: data.filter((schedule) => recordSeen(seen, schedule)) }))))
    )
    // Asked once the schedule's environment is known: a bound key cancels only its own environment's.
    .handle("cancel", ({ path }) =>
      Effect.gen(function* () {
        const access = yield* ManagementAccess
        const schedules = yield* Schedules
        const mayCancel = (environment: string) => Effect.suspend(() => Policy.authorizeEnvironmentWrite(access.caller, environment))
        yield* mapped(schedules.cancel(path.projectId, path.flagKey, path.scheduleId, mayCancel))
      })
    )
    // A bound key naming no environment gets its own environment's.
    .handle("listPending", ({ path, urlParams }) =>
      Effect.gen(function* () {
        if (urlParams.environment !== undefined) yield* mayRead(urlParams.environment)
        const environment = urlParams.environment ?? (yield* seenEnvironment) ?? undefined
        const schedules = yield* Schedules
        return { data: yield* mapped(schedules.listPending(path.projectId, environment)) }
      })
    )
)
