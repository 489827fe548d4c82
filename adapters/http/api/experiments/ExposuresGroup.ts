/** The declaration of `POST /v1/exposures`: an SDK evaluating in process says which unit it served which variation. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { ExposureBatch, IngestReceipt } from "../../../../src/domain/experiments/Exposure.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described } from "../Declaring.js"
import { EvaluationAuth } from "../Security.js"
import * as Examples from "./ExperimentExamples.js"

/** The payload as declared (and, for the 400, decoded: ExposuresLive.ts decodes it itself, IngestPayload.ts). */
export const ExposureBatchPayload = strict(ExposureBatch).annotations({ examples: [Examples.exposureBatch] })

export class ExposuresGroup extends HttpApiGroup.make("exposures")
  .add(described(
    HttpApiEndpoint.post("record", "/v1/exposures")
      .setPayload(ExposureBatchPayload)
      .addSuccess(IngestReceipt.annotations({ examples: [Examples.ingestReceipt], ...HttpApiSchema.annotations({ status: 202 }) }))
      .addError(Errors.IngestLimited)
      .addError(Errors.Unavailable),
    "Record exposures of an SDK's evaluations",
    "An SDK evaluating in process says which `unit` (the value the rule's rollout buckets by) was served which variation by which rule, and when. Only exposures of a running experiment's flag and rule, at or after its start, are kept (`accepted`): each updates its unit's row; the rest are counted in `dropped` and not stored. The answer comes once they are committed. A `batchId` (1 to 64 characters) resent by the same key to this route within 24 hours answers `duplicate: true` and counts nothing again. At most 1,000 exposures; each `timestamp` within the last 24 hours and at most 5 minutes ahead (400 naming the item); units 1 to 256 characters. 429 when the key sent more than 100,000,000 items this clock hour; 503 while too many items wait to be written. With a global server key, `projectId` is required; `environment` unless the key is bound to one."
  ))
  .middleware(EvaluationAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "What SDKs send for experiments: client or server keys.") {}
