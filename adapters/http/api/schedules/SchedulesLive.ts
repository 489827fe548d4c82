/**
 * The schedules handlers: each a call to the `Schedules` use case, which decides who may ask for
 * it. Schedules remember who made them (the scheduler later acts as `{ type: "schedule", keyId,
 * keyName }` or the person's): the create runs as the authenticated caller, as every call through `mapped` does.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Schedules } from "../../../../src/services/schedules/Schedules.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const SchedulesLive = HttpApiBuilder.group(FlagportApi, "schedules", (handlers) =>
  handlers
    .handle("create", ({ path, payload }) => Effect.flatMap(Schedules, (schedules) => mapped(schedules.create(path.projectId, path.flagKey, payload))))
    .handle("list", ({ path }) =>
      Effect.flatMap(Schedules, (schedules) => Effect.map(mapped(schedules.list(path.projectId, path.flagKey)), (data) => ({ data }))))
    .handle("cancel", ({ path }) => Effect.flatMap(Schedules, (schedules) => mapped(schedules.cancel(path.projectId, path.flagKey, path.scheduleId))))
    .handle("listPending", ({ path, urlParams }) =>
      Effect.flatMap(Schedules, (schedules) => Effect.map(mapped(schedules.listPending(path.projectId, urlParams.environment)), (data) => ({ data }))))
)
