/** The declaration of `POST /v1/track`: an SDK says what a unit did (a metric event). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { IngestReceipt } from "../../../../src/domain/experiments/Exposure.js"
import { TrackBatch } from "../../../../src/domain/experiments/MetricEvent.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described } from "../Declaring.js"
import { EvaluationAuth } from "../Security.js"
import * as Examples from "./ExperimentExamples.js"

/** The payload as declared (and, for the 400, decoded: TrackLive.ts decodes it itself, IngestPayload.ts). */
export const TrackBatchPayload = strict(TrackBatch).annotations({ examples: [Examples.trackBatch] })

export class TrackGroup extends HttpApiGroup.make("track")
  .add(described(
    HttpApiEndpoint.post("record", "/v1/track")
      .setPayload(TrackBatchPayload)
      .addSuccess(IngestReceipt.annotations({ examples: [Examples.ingestReceipt], ...HttpApiSchema.annotations({ status: 202 }) }))
      .addError(Errors.IngestLimited)
      .addError(Errors.Unavailable),
    "Record metric events",
    "An SDK says what a `unit` (the value the experiment's rollout buckets by) did: an `event` name, an optional `value` (counted as 1 when left out) and `timestamp` (the server's clock when left out). An event is kept (`accepted`) for every running experiment's metric in the environment that names it, updating its unit's figures; the rest are counted in `dropped` and not stored. The answer comes once they are committed. A `batchId` (1 to 64 characters) resent by the same key to this route within 24 hours answers `duplicate: true` and counts nothing again. At most 1,000 events; each `timestamp` within the last 24 hours and at most 5 minutes ahead (400 naming the item); values finite and at most 10^12 in absolute value; units 1 to 256 characters. 429 when the key sent more than 100,000,000 items (exposures and events together) this clock hour; 503 while too many items wait to be written (send again later). With a global server key, `projectId` is required; `environment` unless the key is bound to one."
  ))
  .middleware(EvaluationAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Metric events SDKs send for experiments: client or server keys.") {}
