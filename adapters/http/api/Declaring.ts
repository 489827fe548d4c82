/**
 * The building blocks of every endpoint declaration: the path parameters, an operation's summary
 * and description, the 201 of a creation and the `{ data: [...] }` of a list.
 */
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import type { HttpMethod } from "@effect/platform/HttpMethod"
import * as Schema from "effect/Schema"
import { Text } from "../../../src/domain/definitions/Text.js"

// Path parameters are looked up in the database: U+0000 is refused (400) before any query.
export const projectId = HttpApiSchema.param("projectId", Text)
export const flagKey = HttpApiSchema.param("flagKey", Text)
export const segmentKey = HttpApiSchema.param("segmentKey", Text)
export const webhookId = HttpApiSchema.param("webhookId", Text)
export const deliveryId = HttpApiSchema.param("deliveryId", Text)
export const keyId = HttpApiSchema.param("keyId", Text)
export const environmentKey = HttpApiSchema.param("environmentKey", Text)
export const scheduleId = HttpApiSchema.param("scheduleId", Text)
export const changeRequestId = HttpApiSchema.param("changeRequestId", Text)
export const experimentKey = HttpApiSchema.param("experimentKey", Text)
export const releasePlanId = HttpApiSchema.param("releasePlanId", Text)

/** An endpoint with its OpenAPI summary (one line) and description. */
export const described = <N extends string, M extends HttpMethod, P, U, Pl, H, S, E, R, RE>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<N, M, P, U, Pl, H, S, E, R, RE>,
  summary: string,
  description: string
) => endpoint.annotate(OpenApi.Summary, summary).annotate(OpenApi.Description, description)

export const Created = <S extends Schema.Schema.Any>(schema: S): S => schema.annotations(HttpApiSchema.annotations({ status: 201 })) as S
export const dataOf = <S extends Schema.Schema.Any>(item: S) => Schema.Struct({ data: Schema.Array(item) })
