/** `GET /v1/stream`: the lane's change stream (lane/StreamRoute.ts), which authenticates itself. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { viaLane } from "./ViaLane.js"

export const StreamsLive = HttpApiBuilder.group(FlagportApi, "streams", (handlers) =>
  handlers.handleRaw("stream", ({ request }) => {
    const q = request.url.indexOf("?")
    const query = q === -1 ? "" : request.url.slice(q + 1)
    return viaLane((lane) => lane.stream(query, (name) => request.headers[name], Option.getOrUndefined(request.remoteAddress))).pipe(
      // A GET without a body cannot be too large or of the wrong type: those would be bugs.
      Effect.catchIf(
        (error): error is Errors.PayloadTooLarge | Errors.UnsupportedMediaType =>
          error instanceof Errors.PayloadTooLarge || error instanceof Errors.UnsupportedMediaType,
        Effect.die
      )
    )
  }))
