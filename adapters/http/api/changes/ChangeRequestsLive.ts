import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { ChangeRequests } from "../../../../src/services/changes/ChangeRequests.js"
import { FlagportApi } from "../Api.js"
import { recordSeen } from "../../../../src/domain/auth/EnvironmentView.js"
import { mapped, mayRead, mayWrite, seenEnvironment } from "../Calling.js"
import type * as Errors from "../../shared/Errors.js"

/**
 * Change requests. A key bound to an environment reads and acts only on requests to that
 * environment (403, as for its targeting writes); who among people may act is the use case's (ChangeRequestRules.ts).
 */
export const ChangeRequestsLive = HttpApiBuilder.group(FlagportApi, "changeRequests", (handlers) => {
  /** `act` on the request, once the caller may write its environment. */
  const onRequest = <A, E extends Errors.ServiceError>(
    path: { readonly projectId: string; readonly changeRequestId: string },
    act: (crs: typeof ChangeRequests.Service) => Effect.Effect<A, E>
  ) =>
    Effect.gen(function* () {
      const crs = yield* ChangeRequests
      const request = yield* mapped(crs.get(path.projectId, path.changeRequestId))
      yield* mayWrite(request.environment)
      return yield* mapped(act(crs))
    })
  return handlers
    .handle("open", ({ path, payload }) =>
      Effect.zipRight(mayWrite(payload.environment), Effect.flatMap(ChangeRequests, (crs) => mapped(crs.open(path.projectId, payload)))))
    // A bound key reads only its own environment's requests: the others are left out of the list, 403 by id.
    .handle("list", ({ path, urlParams }) =>
      Effect.flatMap(seenEnvironment, (seen) =>
        Effect.flatMap(ChangeRequests, (crs) =>
          Effect.map(mapped(crs.list(path.projectId, urlParams.status)), (data) => ({ data: data.filter((request) => recordSeen(seen, request)) })))))
    .handle("get", ({ path }) =>
      Effect.flatMap(ChangeRequests, (crs) =>
        Effect.flatMap(mapped(crs.get(path.projectId, path.changeRequestId)), (request) => Effect.as(mayRead(request.environment), request))))
    .handle("update", ({ path, payload }) => onRequest(path, (crs) => crs.update(path.projectId, path.changeRequestId, payload)))
    .handle("approve", ({ path, payload }) => onRequest(path, (crs) => crs.approve(path.projectId, path.changeRequestId, payload ?? {})))
    .handle("reject", ({ path, payload }) => onRequest(path, (crs) => crs.reject(path.projectId, path.changeRequestId, payload)))
    .handle("cancel", ({ path }) => onRequest(path, (crs) => crs.cancel(path.projectId, path.changeRequestId)))
    .handle("apply", ({ path }) => onRequest(path, (crs) => crs.apply(path.projectId, path.changeRequestId)))
})
