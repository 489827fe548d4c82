/**
 * POST /v1/exposures: the SDK's exposures, with the key that sent them (the use case checks its
 * scope as an evaluation's). The body is decoded by IngestPayload.ts (a fast decoder, the schema
 * for anything it does not recognise), not by the HttpApi: hence `handleRaw`.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Exposures } from "../../../../src/services/experiments/Exposures.js"
import * as Errors from "../../shared/Errors.js"
import { FlagportApi } from "../Api.js"
import { asEnvelopes } from "../Calling.js"
import { EvaluationPrincipal } from "../Security.js"
import { ExposureBatchPayload } from "./ExposuresGroup.js"
import { exposureBatch } from "./FastIngestDecode.js"
import { ingestPayload } from "./IngestPayload.js"

export const ExposuresLive = HttpApiBuilder.group(FlagportApi, "exposures", (handlers) =>
  handlers.handleRaw("record", ({ request }) =>
    Effect.flatMap(ingestPayload(request, exposureBatch, ExposureBatchPayload), (payload) =>
      Effect.flatMap(EvaluationPrincipal, (principal) =>
        Effect.flatMap(Exposures, (exposures) =>
          asEnvelopes(exposures.record(principal, payload)).pipe(
            // The budget's 429 is this route's, not the sign-in limit's the shared envelope names.
            Effect.catchIf((error) => error instanceof Errors.SignInLimited, (error) => Effect.fail(new Errors.IngestLimited({ error: error.error })))
          ))))))
