/**
 * POST /v1/track: the SDK's metric events, with the key that sent them (the use case checks its
 * scope as an evaluation's). The body is decoded by IngestPayload.ts (a fast decoder, the schema
 * for anything it does not recognise), not by the HttpApi: hence `handleRaw`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Track } from "../../../../src/services/experiments/Track.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { asEnvelopes } from "../Calling.js"
import { EvaluationPrincipal } from "../Security.js"
import { trackBatch } from "./FastIngestDecode.js"
import { ingestPayload } from "./IngestPayload.js"
import { TrackBatchPayload } from "./TrackGroup.js"

export const TrackLive = HttpApiBuilder.group(FlagportApi, "track", (handlers) =>
  handlers.handleRaw("record", ({ request }) =>
    Effect.flatMap(ingestPayload(request, trackBatch, TrackBatchPayload), (payload) =>
      Effect.flatMap(EvaluationPrincipal, (principal) =>
        Effect.flatMap(Track, (track) =>
          asEnvelopes(track.record(principal, payload)).pipe(
            // The budget's 429 is this route's, not the sign-in limit's the shared envelope names.
            Effect.catchIf((error) => error instanceof Errors.SignInLimited, (error) => Effect.fail(new Errors.IngestLimited({ error: error.error })))
          ))))))
