/**
 * The declarations of evaluation, for applications and SDKs (client or server keys). The evaluation
 * lane answers the same routes first (lane/): these decode the requests on the HttpApi path and
 * document them (EvaluationLive.ts hands them to the same lane methods).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { ConfigSnapshot } from "../../../../src/domain/evaluation/ConfigSnapshot.js"
import { EvaluationResult } from "../../../../src/domain/evaluation/EvaluationResult.js"
import { ExplanationSchema } from "../../../../src/domain/evaluation/Trace.js"
import {
  ConfigQuery,
  EvaluateRequest,
  EvaluateResponse,
  ExplainRequest,
  FlagEvalQuery,
  KEY_LIST_CONTENT_TYPE,
  KeyListQuery
} from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described, flagKey, segmentKey } from "../Declaring.js"
import { listName } from "../segments/SegmentKeysGroup.js"
import * as Examples from "../Examples.js"
import { declareConfigETag } from "../OpenApiDocument.js"
import { EvaluationAuth } from "../Security.js"

// The answer with its example: one instance, so every operation refers to one component.
const EvaluateResponseDoc = EvaluateResponse.annotations({ examples: [Examples.evaluated] })

export const ConfigHeaders = Schema.Struct({
  "if-none-match": Schema.optional(Schema.String)
})

export class EvaluationGroup extends HttpApiGroup.make("evaluation")
  .add(described(
    HttpApiEndpoint.post("evaluate", "/v1/evaluate").setPayload(EvaluateRequest.annotations({ examples: [Examples.evaluate] })).addSuccess(EvaluateResponseDoc),
    "Evaluate every flag for a context",
    "Evaluates all flags of the project in one environment for one context. With a global server key, `projectId` is required."
  ))
  .add(described(
    HttpApiEndpoint.get("flag")`/v1/flags/${flagKey}/eval`.setUrlParams(FlagEvalQuery).addSuccess(EvaluationResult),
    "Evaluate one flag for a context",
    "Evaluates one flag; `attributes` is URL-encoded JSON so numbers and booleans keep their types. An unknown flag answers 404."
  ))
  .add(described(
    HttpApiEndpoint.post("explain", "/v1/explain")
      .setPayload(ExplainRequest.annotations({ examples: [Examples.explain] }))
      .addSuccess(ExplanationSchema.annotations({ examples: [Examples.explained] })),
    "Explain one flag's evaluation for a context",
    "Evaluates one flag as `GET /v1/flags/{flagKey}/eval` does (`result` is that answer) and returns the path the evaluator took: the prerequisites with their results, each rule tried with each condition's attribute, the value read (or `absent`), operator, values and outcome, and for a rollout the bucket and the variation chosen. An unknown flag is a 404."
  ))
  .add(described(
    HttpApiEndpoint.get("config", "/v1/config")
      .setUrlParams(ConfigQuery)
      .setHeaders(ConfigHeaders)
      .addSuccess(ConfigSnapshot)
      .addSuccess(HttpApiSchema.Empty(304).annotations({ description: "Not modified: If-None-Match equals the current ETag." })),
    "Get the configuration for local evaluation",
    "Every flag and segment of one environment, for SDKs that evaluate in process. Poll with `If-None-Match` set to the last `ETag`: 304 while nothing changed."
  ).annotate(OpenApi.Transform, declareConfigETag))
  .add(described(
    HttpApiEndpoint.get("keyList")`/v1/config/segments/${segmentKey}/${listName}`
      .setUrlParams(KeyListQuery)
      .addSuccess(Schema.Uint8ArrayFromSelf.pipe(HttpApiSchema.withEncoding({ kind: "Uint8Array", contentType: KEY_LIST_CONTENT_TYPE })).annotations({
        description:
          "The list's salted 64-bit key hashes, never its keys, in Flagport's binary key-list layout (docs/guide/delivery.md): the whole list, or, with `since`, the change since that version (hashes added and removed), whichever the server can give; the body says which, the version it brings the holder to and the salt."
      })),
    "Get a segment's key list for local evaluation",
    "For SDKs that evaluate in process: `GET /v1/config` names each list's `version` and `salt`; this route sends the list as hashes (client and server keys alike, under the rules of `GET /v1/config`: refused to client keys where the environment serves them evaluations only). A holder of an older version passes `since` and is sent only the change when the server's change log reaches back to it. 404 when the segment has no such list."
  ))
  .middleware(EvaluationAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Evaluation, for applications and SDKs: client or server keys.") {}
