/**
 * Change requests: each handler a call to the `ChangeRequests` use case, which decides who may ask
 * (the one table, a key bound to an environment only for that environment's requests) and who among
 * people may act on a request (ChangeRequestRules.ts: the author, the approvers).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ChangeRequests } from "../../../../src/services/changes/ChangeRequests.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const ChangeRequestsLive = HttpApiBuilder.group(FlagportApi, "changeRequests", (handlers) =>
  handlers
    .handle("open", ({ path, payload }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.open(path.projectId, payload))))
    .handle("list", ({ path, urlParams }) => Effect.flatMap(ChangeRequests, (crs) => Effect.map(mapped(crs.list(path.projectId, urlParams.status)), (data) => ({ data }))))
    .handle("get", ({ path }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.get(path.projectId, path.changeRequestId))))
    .handle("update", ({ path, payload }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.update(path.projectId, path.changeRequestId, payload))))
    .handle("approve", ({ path, payload }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.approve(path.projectId, path.changeRequestId, payload ?? {}))))
    .handle("reject", ({ path, payload }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.reject(path.projectId, path.changeRequestId, payload))))
    .handle("cancel", ({ path }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.cancel(path.projectId, path.changeRequestId))))
    .handle("apply", ({ path }) => Effect.flatMap(ChangeRequests, (crs) => mapped(crs.apply(path.projectId, path.changeRequestId))))
)
