/**
 * Post-processing of the generated OpenAPI document, for what the HttpApi declaration cannot say:
 *
 * - every HttpApi carries a built-in `HttpApiDecodeError` (400, `{_tag, issues, message}`) that
 *   this API never sends (the API-level middleware turns decode failures into our envelope), so
 *   the document must not show it (nor a 400 of an operation that has no input, like `/health`,
 *   where it is the only one);
 * - a rule serves exactly one of `variationKey` and `rollout` (checked by validation, with its
 *   own messages, not by the schema's shape): `oneOf` says so;
 * - the `ETag` response header of `GET /v1/config`;
 * - the webhook payloads, under OpenAPI 3.1 `webhooks`;
 * - the 431 of every operation (see `declareHeadersTooLarge`).
 */
import * as JSONSchema from "effect/JSONSchema"
import { WebhookEvent, WebhookEventType } from "../../../src/domain/webhooks/Webhook.js"
import { ManagementEvent } from "../../../src/domain/audit/ManagementEvent.js"

type Json = Record<string, unknown>

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"
const BUILT_IN_SCHEMAS = ["HttpApiDecodeError", "Issue", "PropertyKey"]

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

/** The schema without the built-in decode error; `undefined` when it was the only one. */
const withoutDecodeError = (schema: unknown): unknown => {
  if (isRecord(schema) && schema.$ref === DECODE_ERROR_REF) return undefined
  if (!isRecord(schema) || !Array.isArray(schema.anyOf)) return schema
  const rest = schema.anyOf.filter((s) => !(isRecord(s) && s.$ref === DECODE_ERROR_REF))
  if (rest.length === schema.anyOf.length) return schema
  return rest.length === 1 ? rest[0] : { ...schema, anyOf: rest }
}

/**
 * `Schema.Unknown` becomes `{ "$id": "/schemas/unknown" }` at every use, and a JSON Schema `$id`
 * may appear only once in a document; the `$id` adds nothing, so drop it everywhere.
 */
const dropBuiltInIds = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) dropBuiltInIds(item)
  } else if (isRecord(node)) {
    if (typeof node.$id === "string" && node.$id.startsWith("/schemas/")) delete node.$id
    for (const value of Object.values(node)) dropBuiltInIds(value)
  }
}

/** Drops the built-in decode error from every response and from the components. */
const removeBuiltInDecodeError = <S extends Json>(spec: S): S => {
  dropBuiltInIds(spec)
  const paths = isRecord(spec.paths) ? spec.paths : {}
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!isRecord(response) || !isRecord(response.content)) continue
        const json = response.content["application/json"]
        if (!isRecord(json)) continue
        const schema = withoutDecodeError(json.schema)
        if (schema === undefined) {
          delete operation.responses[status]
        } else if (schema !== json.schema) {
          json.schema = schema
          if (status === "400") {
            response.description =
              "The request is invalid (malformed JSON, a missing or mistyped field, an unknown field, a broken rule); `details` lists every problem with its JSON path."
          }
        }
      }
    }
  }
  const components = isRecord(spec.components) ? spec.components : undefined
  if (components && isRecord(components.schemas)) {
    for (const name of BUILT_IN_SCHEMAS) {
      delete components.schemas[name]
    }
  }
  return spec
}

const schemasOf = (spec: Json): Json => {
  const components = isRecord(spec.components) ? spec.components : (spec.components = {})
  return isRecord(components.schemas) ? components.schemas : (components.schemas = {})
}

/** The rule schemas (stored and as sent) allow exactly one of `variationKey` and `rollout`. */
const ruleServesExactlyOne = (spec: Json): void => {
  const schemas = schemasOf(spec)
  for (const name of ["Rule", "RuleInput"]) {
    const rule = schemas[name]
    if (!isRecord(rule)) continue
    rule.oneOf = [
      { required: ["variationKey"], title: "serves one variation" },
      { required: ["rollout"], title: "serves a percentage rollout" }
    ]
    rule.description = "Exactly one of `variationKey` and `rollout` is set."
  }
}

const ETAG = {
  ETag: {
    description: "The version of the configuration (a weak validator): send it back as `If-None-Match` to get 304 while nothing changed.",
    schema: { type: "string" },
    example: "W/\"42\""
  }
}

/** The `ETag` header of `GET /v1/config`, on the 200 and the 304 (an endpoint-level transform). */
export const declareConfigETag = (operation: Record<string, any>): Record<string, any> => {
  const responses = isRecord(operation.responses) ? operation.responses : {}
  for (const status of ["200", "304"]) {
    const response = responses[status]
    if (isRecord(response)) response.headers = { ...(isRecord(response.headers) ? response.headers : {}), ...ETAG }
  }
  return operation
}

/**
 * A body that may be left out (declared `Schema.NullOr(body)`: the platform reads an absent JSON
 * body as `null`): the request body is not required, and its schema is the body's alone.
 */
export const declareOptionalBody = (operation: Record<string, any>): Record<string, any> => {
  const json = operation.requestBody?.content?.["application/json"]
  if (json === undefined) return operation
  const schema = isRecord(json.schema) && Array.isArray(json.schema.anyOf)
    ? json.schema.anyOf.find((s: unknown) => !(isRecord(s) && s.type === "null"))
    : json.schema
  return { ...operation, requestBody: { ...operation.requestBody, required: false, content: { "application/json": { ...json, schema } } } }
}

/** `GET /v1/stream` authenticates itself: a bearer key, or (`{}`) none in the header but a `token` in the query. */
export const declareStreamSecurity = (operation: Record<string, any>): Record<string, any> => ({
  ...operation,
  security: [{ bearerAuth: [] }, {}]
})

const WEBHOOK_HEADERS = [
  { name: "webhook-id", description: "The event id, the same on every retry: receivers drop duplicates by it." },
  { name: "webhook-timestamp", description: "Seconds since the epoch when this attempt was sent." },
  {
    name: "webhook-signature",
    description: "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under the webhook's secret (Standard Webhooks); several are space-separated while a secret rotates."
  }
]

/** One OpenAPI 3.1 `webhooks` entry per event type, all carrying the `WebhookEvent` payload. */
const describeWebhooks = (spec: Json): void => {
  const schemas = schemasOf(spec)
  // Adds `WebhookEvent` (named by its annotation) to the components, referring to `Flag` there.
  JSONSchema.fromAST(WebhookEvent.ast, {
    definitions: schemas as Record<string, JSONSchema.JsonSchema7>,
    definitionPath: "#/components/schemas/",
    target: "openApi3.1"
  })
  const webhooks: Json = {}
  for (const type of WebhookEventType.literals) {
    webhooks[type] = {
      post: {
        operationId: `webhook.${type}`,
        summary: `The \`${type}\` event`,
        description: `Sent to every enabled webhook of the project subscribed to \`${type}\`, after the change is committed. Answer 2xx within 10 seconds; anything else is retried with backoff.`,
        tags: ["webhooks"],
        security: [],
        parameters: WEBHOOK_HEADERS.map((h) => ({ in: "header", required: true, schema: { type: "string" }, ...h })),
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookEvent" } } } },
        responses: { "200": { description: "Received (any 2xx counts as delivered)." } }
      }
    }
  }
  spec.webhooks = webhooks
}

/** Every change this module makes, as the API's OpenAPI transform. */
/**
 * Node's HTTP parser refuses a request line or headers over its 16 KB limit before any route runs,
 * answered 431 in our envelope (serving/ClientError.ts), so every operation can return it, `GET
 * /health` included. Not an HttpApi error: its body has the shape of the 400's, and HttpApi picks
 * an error's status by its shape, so declaring both would answer 400s with 431. OFREP's operations
 * list OFREP's bodies only.
 */
const declareHeadersTooLarge = (spec: Json): void => {
  const paths = isRecord(spec.paths) ? spec.paths : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item) || path.startsWith("/ofrep/")) continue
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue
      operation.responses["431"] = {
        description: "The request line or headers are over the server's limit (16 KB), refused before routing.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/BadRequest" } } }
      }
    }
  }
}

/** The data of the management events stream's `change` events, as a component (the stream itself is text). */
const describeManagementEvent = (spec: Json): void => {
  JSONSchema.fromAST(ManagementEvent.ast, {
    definitions: schemasOf(spec) as Record<string, JSONSchema.JsonSchema7>,
    definitionPath: "#/components/schemas/",
    target: "openApi3.1"
  })
}

export const finishDocument = <S extends Json>(spec: S): S => {
  declareHeadersTooLarge(spec)
  describeManagementEvent(spec)
  describeWebhooks(spec)
  removeBuiltInDecodeError(spec)
  ruleServesExactlyOne(spec)
  return spec
}
