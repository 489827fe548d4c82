/**
 * The OFREP routes in the HttpApi declaration, under their own tag: what /openapi.json shows of
 * them. They are answered whole by the evaluation lane (authentication, CORS and OFREP's own
 * error bodies: lane/Ofrep.ts), on either path, so the schemas here document; they decode nothing.
 *
 * The API-level errors (our envelope) do not apply to these routes: `ofrepOperation` keeps only
 * OFREP's bodies in each response and declares the bearer scheme the lane checks.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { documentName } from "../../../../src/domain/DocumentName.js"

const Key = Schema.String.annotations({ description: "The flag key." })
const Details = Schema.String.annotations({ description: "What went wrong, for logs." })

const Metadata = Schema.Struct({
  ruleId: Schema.optional(Schema.String),
  ruleIndex: Schema.optional(Schema.Number),
  prerequisiteKey: Schema.optional(Schema.String.annotations({ description: "With the reason PREREQUISITE_FAILED: the prerequisite flag not met." })),
  version: Schema.optional(Schema.Number.annotations({ description: "The flag's version." }))
}).annotations({ ...documentName("OfrepMetadata"), description: "`ruleId` and `ruleIndex` of the rule that matched, `prerequisiteKey` of a prerequisite not met, and the flag's version." })

export const OfrepEvaluationRequest = Schema.Struct({
  context: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      description: "`targetingKey` is the context key (absent: evaluated without one); every other property is an attribute."
    })
  )
}).annotations({ ...documentName("OfrepEvaluationRequest"), examples: [{ context: { targetingKey: "user-42", plan: "beta" } }] })

export const OfrepEvaluationSuccess = Schema.Struct({
  key: Key,
  value: Schema.Unknown,
  reason: Schema.Literal("TARGETING_MATCH", "SPLIT", "STATIC", "DEFAULT", "DISABLED"),
  variant: Schema.String.annotations({ description: "The variation key." }),
  metadata: Metadata
}).annotations({
  ...documentName("OfrepEvaluationSuccess"),
  examples: [{ key: "new-checkout", value: true, reason: "TARGETING_MATCH", variant: "on", metadata: { ruleId: "r1", ruleIndex: 0, version: 3 } }]
})

const FlagFailure = Schema.Struct({
  key: Key,
  errorCode: Schema.Literal("GENERAL"),
  errorDetails: Details,
  metadata: Metadata
}).annotations({ ...documentName("OfrepFlagFailure"), description: "A flag whose definition cannot be evaluated." })

type Codes = readonly [string, ...Array<string>]

/** A failure of the single-flag route (its bodies carry `key`). */
const keyed = (name: string, status: number, description: string, codes: Codes) =>
  Schema.Struct({ key: Key, errorCode: Schema.Literal(...codes), errorDetails: Details }).annotations({
    ...documentName(name),
    description,
    ...HttpApiSchema.annotations({ status })
  })

/** A failure of the bulk route, or one that comes before the flag is read (authentication). */
const unkeyed = (name: string, status: number, description: string, codes: Codes) =>
  Schema.Struct({ errorCode: Schema.Literal(...codes), errorDetails: Details }).annotations({
    ...documentName(name),
    description,
    ...HttpApiSchema.annotations({ status })
  })

const EvaluationFailure = keyed(
  "OfrepEvaluationFailure",
  400,
  "PARSE_ERROR: the body is not a JSON object. INVALID_CONTEXT: a malformed context, no environment, an unknown environment. GENERAL: the flag cannot be evaluated.",
  ["PARSE_ERROR", "INVALID_CONTEXT", "GENERAL"]
)
const FlagNotFound = keyed("OfrepFlagNotFound", 404, "No flag with this key in the environment.", ["FLAG_NOT_FOUND"])
const BulkFailure = unkeyed(
  "OfrepBulkFailure",
  400,
  "PARSE_ERROR: the body is not a JSON object. INVALID_CONTEXT: a malformed context, no environment, an unknown environment.",
  ["PARSE_ERROR", "INVALID_CONTEXT"]
)
const TooLarge = unkeyed("OfrepPayloadTooLarge", 413, "The body is over 1 MiB (on the single-flag route the body also names the `key`).", ["PARSE_ERROR"])
const Unauthorized = unkeyed("OfrepUnauthorized", 401, "Missing or malformed Authorization header, or an unknown key (on the single-flag route the body also names the `key`).", ["GENERAL"])
const Forbidden = unkeyed("OfrepForbidden", 403, "The key may not evaluate this project or environment (on the single-flag route the body also names the `key`).", ["GENERAL"])
const Internal = unkeyed("OfrepInternalError", 500, "An internal error, logged by the server (on the single-flag route the body also names the `key`).", ["GENERAL"])

export const OfrepBulkSuccess = Schema.Struct({
  flags: Schema.Array(Schema.Union(OfrepEvaluationSuccess, FlagFailure)),
  metadata: Schema.Struct({
    version: Schema.String.annotations({ description: "The configuration's version: the ETag of GET /v1/config for this environment." })
  }),
  eventStreams: Schema.optional(
    Schema.Array(
      Schema.Struct({
        type: Schema.Literal("sse"),
        url: Schema.String.annotations({ description: "This server's GET /v1/stream for the same project and environment, with a stream token (no API key in the URL)." })
      })
    ).annotations({ description: "Where to follow changes (OFREP change notifications): refetch the bulk evaluation on each event." })
  )
}).annotations({
  ...documentName("OfrepBulkSuccess"),
  examples: [
    {
      flags: [{ key: "new-checkout", value: true, reason: "TARGETING_MATCH", variant: "on", metadata: { ruleId: "r1", ruleIndex: 0, version: 3 } }],
      metadata: { version: "W/\"kq3mYx1rP0bE2u9wN4s7ZtVdQaL\"" },
      eventStreams: [{ type: "sse", url: "https://flags.example.com/v1/stream?environment=production&token=v1.eyJwIjoiYWNtZSJ9.c2lnbmF0dXJl" }]
    }
  ]
})

const Environment = Schema.optional(
  Schema.String.annotations({ description: "The environment to evaluate; not needed with a key bound to one (which refuses any other)." })
)

const ETAG = {
  ETag: {
    description: "Depends on the configuration and the context: send it back as `If-None-Match` with the same context to get 304 while nothing changed.",
    schema: { type: "string" }
  }
}

const isRecord = (u: unknown): u is Record<string, any> => typeof u === "object" && u !== null && !Array.isArray(u)
const OFREP_SCHEMA = "#/components/schemas/Ofrep"

/** What the API-level descriptions of these statuses say of the envelope, said of OFREP's bodies. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  "400": "A malformed body (PARSE_ERROR) or context, no environment or an unknown one (INVALID_CONTEXT); GENERAL when the flag cannot be evaluated.",
  "500": "An internal error, logged by the server."
}

/** Only OFREP's bodies in each response (not the API-level envelope), the bearer scheme, the bulk ETag. */
const ofrepOperation = (operation: Record<string, any>): Record<string, any> => {
  const responses: Record<string, any> = isRecord(operation.responses) ? operation.responses : {}
  for (const [status, response] of Object.entries(responses)) {
    const description = DESCRIPTIONS[status]
    if (description !== undefined && isRecord(response)) response.description = description
    const json = isRecord(response) && isRecord(response.content) ? response.content["application/json"] : undefined
    if (!isRecord(json) || !isRecord(json.schema)) continue
    const schema = json.schema
    const refs: Array<unknown> = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
    const kept = refs.filter((s) => isRecord(s) && typeof s.$ref === "string" && s.$ref.startsWith(OFREP_SCHEMA))
    if (kept.length === 0 && status !== "200") delete responses[status]
    else if (kept.length > 0) json.schema = kept.length === 1 ? kept[0] : { anyOf: kept }
  }
  operation.security = [{ bearerAuth: [] }]
  return operation
}

const withBulkEtag = (operation: Record<string, any>): Record<string, any> => {
  const responses: Record<string, any> = isRecord(operation.responses) ? operation.responses : {}
  for (const status of ["200", "304"]) {
    if (isRecord(responses[status])) responses[status].headers = { ...ETAG }
  }
  return ofrepOperation(operation)
}

const flagKey = HttpApiSchema.param("key", Schema.String)

export class OfrepGroup extends HttpApiGroup.make("OFREP")
  .add(
    HttpApiEndpoint.post("evaluateFlag")`/ofrep/v1/evaluate/flags/${flagKey}`
      .setPayload(OfrepEvaluationRequest)
      .setHeaders(Schema.Struct({ "flagport-environment": Environment }))
      .addSuccess(OfrepEvaluationSuccess)
      .addError(EvaluationFailure)
      .addError(FlagNotFound)
      .addError(TooLarge)
      .addError(Unauthorized)
      .addError(Forbidden)
      .addError(Internal)
      .annotate(OpenApi.Summary, "OFREP: evaluate one flag")
      .annotate(
        OpenApi.Description,
        "OpenFeature Remote Evaluation Protocol 0.3.0, for `@openfeature/ofrep-provider` and other OFREP server providers. Evaluates one flag exactly as `POST /v1/evaluate` does; answers in OFREP's shapes. The project comes from the key, the environment from a key bound to one or else the `Flagport-Environment` header."
      )
      .annotate(OpenApi.Transform, ofrepOperation)
  )
  .add(
    HttpApiEndpoint.post("evaluateFlags", "/ofrep/v1/evaluate/flags")
      .setPayload(OfrepEvaluationRequest)
      .setHeaders(Schema.Struct({ "flagport-environment": Environment, "if-none-match": Schema.optional(Schema.String) }))
      .setUrlParams(
        Schema.Struct({
          flagConfigEtag: Schema.optional(Schema.String.annotations({ description: "The configuration a change event announced (OFREP ADR-0008): when it is not the one served, the answer is a 200." })),
          flagConfigLastModified: Schema.optional(Schema.String.annotations({ description: "Sent by OFREP providers after a change event; ignored." }))
        })
      )
      .addSuccess(OfrepBulkSuccess)
      .addSuccess(HttpApiSchema.Empty(304).annotations({ description: "Not modified: If-None-Match names this configuration and this context." }))
      .addError(BulkFailure)
      .addError(TooLarge)
      .addError(Unauthorized)
      .addError(Forbidden)
      .addError(Internal)
      .annotate(OpenApi.Summary, "OFREP: evaluate every flag")
      .annotate(
        OpenApi.Description,
        "OpenFeature Remote Evaluation Protocol 0.3.0, for `@openfeature/ofrep-web-provider` and other OFREP client providers. Evaluates every flag of the environment for one context, as `POST /v1/evaluate` does. The `ETag` depends on the configuration and the context."
      )
      .annotate(OpenApi.Transform, withBulkEtag)
  )
  .annotate(OpenApi.Description, "OpenFeature Remote Evaluation Protocol (OFREP 0.3.0): the community OpenFeature providers evaluate through these, unmodified. Errors use OFREP's bodies, not the envelope.") {}
