/**
 * The evaluation requests and answers as schemas: declared once, used by the HttpApi declaration
 * (api/Api.ts: decoding and the OpenAPI document) and by the lane routes (lane/: the same
 * `Schema`, same parse options, for every request the hand-written decoders do not accept).
 */
import * as Schema from "effect/Schema"
import { Attributes, EvaluationContext } from "../../../src/domain/evaluation/EvaluationContext.js"
import { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"
import { Text } from "../../../src/domain/definitions/Text.js"
import { documentName } from "../../../src/domain/DocumentName.js"
import type { Problem } from "../../../src/domain/Errors.js"

/**
 * The environment to evaluate: required unless the API key is bound to one environment, which it
 * then supplies (naming another is a 403).
 */
const Environment = Schema.optional(
  Text.annotations({
    description: "The environment key. Optional with an environment-bound API key (it supplies its own); required otherwise."
  })
)

/** Strict body decoding: all problems, unknown fields rejected. */
export const strict = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } }) as S

export const EvaluateRequest = strict(
  Schema.Struct({
    environment: Environment,
    context: EvaluationContext,
    /** Required with a global server key; otherwise optional and must be the key's project. */
    projectId: Schema.optional(Text)
  }).annotations(documentName("EvaluateRequest"))
)
export type EvaluateRequest = typeof EvaluateRequest.Type

/** Body of `POST /v1/explain`: one flag, one context, with the same project and environment rules as /v1/evaluate. */
export const ExplainRequest = strict(
  Schema.Struct({
    environment: Environment,
    context: EvaluationContext,
    flagKey: Text,
    /** Required with a global server key; otherwise optional and must be the key's project. */
    projectId: Schema.optional(Text)
  }).annotations(documentName("ExplainRequest"))
)
export type ExplainRequest = typeof ExplainRequest.Type

export const EvaluateResponse = Schema.Struct({
  environment: Schema.String,
  flags: Schema.Record({ key: Schema.String, value: EvaluationResult })
}).annotations(documentName("EvaluateResponse"))

/**
 * Query of `GET /v1/flags/{flagKey}/eval`; `attributes` is URL-encoded JSON so numbers and booleans
 * keep their types. Unknown parameters are refused (see `unknownFlagEvalParameters`).
 */
export const FlagEvalQuery = Schema.Struct({
  environment: Environment,
  key: Schema.String.pipe(Schema.minLength(1, { message: () => "must be a non-empty string" })),
  attributes: Schema.optional(
    Schema.parseJson(Attributes).annotations({
      description: "A URL-encoded JSON object of context attributes."
    })
  ),
  projectId: Schema.optional(Text)
}).annotations({ parseOptions: { errors: "all", onExcessProperty: "error" } })
export type FlagEvalQuery = typeof FlagEvalQuery.Type

/** The parameters `GET /v1/flags/{flagKey}/eval` takes: the schema's fields. */
export const FLAG_EVAL_PARAMETERS: ReadonlySet<string> = new Set(Object.keys(FlagEvalQuery.fields))

/**
 * The problems of the parameters `GET /v1/flags/{flagKey}/eval` does not take. `?country=DE` looks
 * like an attribute but would be ignored and the flag evaluated without it, so it is refused like
 * an unknown field of a body, with where attributes go (an example built from the parameter itself).
 */
export const unknownFlagEvalParameters = (query: Readonly<Record<string, unknown>>): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  for (const name of Object.keys(query)) {
    if (FLAG_EVAL_PARAMETERS.has(name)) continue
    const value = query[name]
    const example = JSON.stringify({ [name]: typeof value === "string" ? value : "..." })
    problems.push({
      path: name,
      message: `is not a parameter of this route (it takes ${[...FLAG_EVAL_PARAMETERS].join(", ")}); context attributes go in one parameter as URL-encoded JSON, e.g. attributes=${encodeURIComponent(example)} for ${example}`
    })
  }
  return problems
}

export const ConfigQuery = Schema.Struct({
  environment: Environment,
  projectId: Schema.optional(Text)
}).annotations({ parseOptions: { errors: "all" } })
export type ConfigQuery = typeof ConfigQuery.Type

/** The media type of a key list as SDKs download it (src/domain/evaluation/KeyListWire.ts). */
export const KEY_LIST_CONTENT_TYPE = "application/vnd.flagport.key-list"

/** Query of `GET /v1/config/segments/{segmentKey}/{list}`: `/v1/config`'s, and the version the caller holds. */
export const KeyListQuery = Schema.Struct({
  environment: Environment,
  projectId: Schema.optional(Text),
  since: Schema.optional(
    Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, Number.MAX_SAFE_INTEGER)).annotations({
      description:
        "The version of the list the caller holds (under the same `salt`): the answer is then the change since it when the server can tell it (the latest 64 versions, no replace in between), else the whole list."
    })
  )
}).annotations({ parseOptions: { errors: "all" } })
export type KeyListQuery = typeof KeyListQuery.Type

