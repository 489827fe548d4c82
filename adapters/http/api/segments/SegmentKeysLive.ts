/**
 * The key lists' handlers: each a call to the `SegmentKeys` use case. The upload's body is read as
 * a stream (shared/Body.ts lets it through unread and uncapped), and the download is written as one,
 * a page of keys at a time, so neither holds a million keys in one string.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { InvalidRequest } from "../../../../src/domain/Errors.js"
import { SegmentKeys } from "../../../../src/services/segments/SegmentKeys.js"
import { keyListFormatOf } from "../../shared/Body.js"
import { etagOf } from "../../shared/Versions.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"
import { uploadBody } from "./UploadBody.js"

/** A body that stopped before its end (the client went away, a broken chunk) is the caller's, not ours. */
const bodyBroken = () => new InvalidRequest({ message: "Invalid key list", details: [{ path: "body", message: "the body ended before it was complete" }] })

const withEtag = <A>(answer: A, version: number) =>
  Effect.as(HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, "etag", etagOf(version)))), answer)

export const SegmentKeysLive = HttpApiBuilder.group(FlagportApi, "segmentKeys", (handlers) =>
  handlers
    .handle("lists", ({ path }) => Effect.flatMap(SegmentKeys, (keys) => mapped(keys.lists(path.projectId, path.segmentKey))))
    .handle("read", ({ path }) =>
      Effect.flatMap(SegmentKeys, (keys) =>
        Effect.map(mapped(keys.read(path.projectId, path.segmentKey, path.list)), ({ info, keys: stream }) =>
          HttpServerResponse.stream(
            stream.pipe(Stream.mapChunks((chunk) => Chunk.of(`${Chunk.join(chunk, "\n")}\n`)), Stream.encodeText),
            { contentType: "text/plain; charset=utf-8", headers: { etag: etagOf(info.version), "flagport-key-count": String(info.count) } }
          ))))
    .handle("replace", ({ path, request }) =>
      Effect.flatMap(SegmentKeys, (keys) => {
        // The security middleware refused any other media type (415) before this runs.
        const format = keyListFormatOf(request.headers["content-type"]) ?? "lines"
        const body = uploadBody(request, bodyBroken)
        return Effect.flatMap(mapped(keys.replace(path.projectId, path.segmentKey, path.list, format, body)), (info) => withEtag(info, info.version))
      }))
    .handle("change", ({ path, payload }) =>
      Effect.flatMap(SegmentKeys, (keys) =>
        Effect.flatMap(mapped(keys.change(path.projectId, path.segmentKey, path.list, payload)), (info) => withEtag(info, info.version))))
)
