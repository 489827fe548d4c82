/** The segments handlers: each a call to the `Segments` use case, which decides who may ask for it. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Segments } from "../../../../src/services/segments/Segments.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const SegmentsLive = HttpApiBuilder.group(FlagportApi, "segments", (handlers) =>
  handlers
    .handle("create", ({ path, payload }) => Effect.flatMap(Segments, (segments) => mapped(segments.create(path.projectId, payload))))
    .handle("list", ({ path }) => Effect.flatMap(Segments, (segments) => Effect.map(mapped(segments.list(path.projectId)), (data) => ({ data }))))
    .handle("get", ({ path }) => Effect.flatMap(Segments, (segments) => mapped(segments.get(path.projectId, path.segmentKey))))
    .handle("patch", ({ path, payload }) => Effect.flatMap(Segments, (segments) => mapped(segments.patch(path.projectId, path.segmentKey, payload))))
    .handle("remove", ({ path }) => Effect.flatMap(Segments, (segments) => mapped(segments.remove(path.projectId, path.segmentKey))))
)
