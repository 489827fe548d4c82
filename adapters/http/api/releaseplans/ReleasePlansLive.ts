/** The release plans handlers: each one call of the `ReleasePlans` use case, which decides what the caller may do. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ReleasePlans } from "../../../../src/services/releaseplans/ReleasePlans.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const ReleasePlansLive = HttpApiBuilder.group(FlagportApi, "releasePlans", (handlers) =>
  handlers
    .handle("list", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => Effect.map(mapped(plans.list(path.projectId, path.flagKey)), (data) => ({ data }))))
    .handle("create", ({ path, payload }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.create(path.projectId, path.flagKey, payload))))
    .handle("get", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.get(path.projectId, path.flagKey, path.releasePlanId))))
    .handle("guardrails", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.guardrails(path.projectId, path.flagKey, path.releasePlanId))))
    .handle("update", ({ path, payload }) =>
      Effect.flatMap(ReleasePlans, (plans) => mapped(plans.update(path.projectId, path.flagKey, path.releasePlanId, payload))))
    .handle("remove", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.remove(path.projectId, path.flagKey, path.releasePlanId))))
    .handle("start", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.start(path.projectId, path.flagKey, path.releasePlanId))))
    .handle("pause", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.pause(path.projectId, path.flagKey, path.releasePlanId))))
    .handle("resume", ({ path, payload }) =>
      Effect.flatMap(ReleasePlans, (plans) => mapped(plans.resume(path.projectId, path.flagKey, path.releasePlanId, payload ?? {}))))
    .handle("cancel", ({ path }) => Effect.flatMap(ReleasePlans, (plans) => mapped(plans.cancel(path.projectId, path.flagKey, path.releasePlanId))))
)
