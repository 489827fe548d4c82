/**
 * The one error envelope of the API, `{ error: { code, message, details? } }`, and the one
 * mapping from domain errors (and StorageError) to it, with the contract's statuses.
 *
 * Each status is its own `Schema.Class` carrying an HttpApi status annotation, so the HttpApi
 * encoder writes exactly the wire envelope (no `_tag`) and the OpenAPI document shows it.
 * The lean evaluation lane uses `envelopeOf` + `statusOf` to write the very same bytes.
 */
import { configEtagOf, etagOf } from "./VersionTags.js"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { Problem } from "../../../src/domain/Errors.js"
import type { ChangeRequestRequired, Forbidden, InvalidRequest, PreconditionFailed as VersionMismatch, RateLimited, ResourceConflict, ResourceNotFound, ServiceUnavailable, Unauthenticated } from "../../../src/domain/Errors.js"

const body = <Code extends string>(code: Code) =>
  Schema.Struct({
    code: Schema.Literal(code),
    message: Schema.String,
    details: Schema.optional(Schema.Array(Problem))
  })

export class BadRequest extends Schema.Class<BadRequest>("BadRequest")(
  { error: body("invalid_request") },
  HttpApiSchema.annotations({ status: 400, description: "The request is invalid; `details` lists every problem with its JSON path." })
) {}

export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")(
  { error: body("unauthorized") },
  HttpApiSchema.annotations({ status: 401, description: "Missing or malformed Authorization header, or an unknown key." })
) {}

export class ForbiddenError extends Schema.Class<ForbiddenError>("Forbidden")(
  { error: body("forbidden") },
  HttpApiSchema.annotations({ status: 403, description: "The key may not do this." })
) {}

export class NotFound extends Schema.Class<NotFound>("NotFound")(
  { error: body("not_found") },
  HttpApiSchema.annotations({ status: 404, description: "Unknown resource or route." })
) {}

/**
 * 409: `conflict` (a duplicate key, a reference still in use, a version moved on), or
 * `change_request_required` (a person's direct write to a protected environment). One class for
 * both codes: HttpApi answers one schema per status.
 */
export class Conflict extends Schema.Class<Conflict>("Conflict")(
  {
    error: Schema.Struct({
      code: Schema.Literal("conflict", "change_request_required"),
      message: Schema.String,
      details: Schema.optional(Schema.Array(Problem))
    })
  },
  HttpApiSchema.annotations({
    status: 409,
    description: "`conflict`: a duplicate key, a reference still in use, or a change request's flags moved on. `change_request_required`: a person's direct write to a protected environment, which needs an approved change request."
  })
) {}

export class PreconditionFailed extends Schema.Class<PreconditionFailed>("PreconditionFailed")(
  { error: body("precondition_failed") },
  HttpApiSchema.annotations({
    status: 412,
    description: "`If-Match` names a version that is not current; `details` names the current one (also the `ETag` of a fresh GET)."
  })
) {}

export class PayloadTooLarge extends Schema.Class<PayloadTooLarge>("PayloadTooLarge")(
  { error: body("payload_too_large") },
  HttpApiSchema.annotations({ status: 413, description: "The body is over 1 MiB." })
) {}

export class UnsupportedMediaType extends Schema.Class<UnsupportedMediaType>("UnsupportedMediaType")(
  { error: body("unsupported_media_type") },
  HttpApiSchema.annotations({ status: 415, description: "A body without Content-Type: application/json." })
) {}

/** A known path asked with a method it does not answer; the response's `Allow` header lists those it does. */
export class MethodNotAllowed extends Schema.Class<MethodNotAllowed>("MethodNotAllowed")(
  { error: body("method_not_allowed") },
  HttpApiSchema.annotations({ status: 405, description: "The path exists but does not answer this method; `Allow` lists the methods it does." })
) {}

/** Too many at once: a bound on concurrent use (open streams) was reached; `Retry-After` says when to try again. */
export class TooManyRequests extends Schema.Class<TooManyRequests>("TooManyRequests")(
  { error: body("rate_limited") },
  HttpApiSchema.annotations({ status: 429, description: "Too many open streams for this key, this client address or the server; retry after `Retry-After` seconds." })
) {}

/** Too many failed sign-ins for one email (docs/guide/people.md); `Retry-After` says when the window has passed. */
export class SignInLimited extends Schema.Class<SignInLimited>("SignInLimited")(
  { error: body("rate_limited") },
  HttpApiSchema.annotations({ status: 429, description: "Too many failed sign-ins for this email within 15 minutes; retry after `Retry-After` seconds." })
) {}

/** A key sent more exposures or events this hour than its budget (`POST /v1/exposures`). */
export class IngestLimited extends Schema.Class<IngestLimited>("IngestLimited")(
  { error: body("rate_limited") },
  HttpApiSchema.annotations({ status: 429, description: "This key sent more items this clock hour than its budget (`ingestKeyHour`); send again after the hour." })
) {}

/** The wire body of a 429 (answered by the lane itself, with `Retry-After`). */
export const tooManyRequests = (message: string) => new TooManyRequests({ error: { code: "rate_limited", message } })

export class InternalError extends Schema.Class<InternalError>("InternalError")(
  { error: body("internal_error") },
  HttpApiSchema.annotations({ status: 500, description: "A bug; the details are in the server log." })
) {}

export class Unavailable extends Schema.Class<Unavailable>("Unavailable")(
  { error: body("unavailable") },
  HttpApiSchema.annotations({ status: 503, description: "The database cannot be reached, or a bounded backlog is full; try again later." })
) {}

export type ApiError =
  | BadRequest
  | Unauthorized
  | ForbiddenError
  | NotFound
  | Conflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | InternalError

export type ProblemDetail = typeof Problem.Type

/** The message of every 500: nothing about the cause leaves the server. */
export const INTERNAL_MESSAGE = "An internal error occurred."

export const badRequest = (message: string, details?: ReadonlyArray<ProblemDetail>): BadRequest =>
  new BadRequest({ error: details === undefined ? { code: "invalid_request", message } : { code: "invalid_request", message, details } })
export const unauthorized = (message: string) => new Unauthorized({ error: { code: "unauthorized", message } })
export const forbidden = (message: string, details?: ReadonlyArray<ProblemDetail>) =>
  new ForbiddenError({ error: details === undefined ? { code: "forbidden", message } : { code: "forbidden", message, details } })
export const notFound = (message: string, details?: ReadonlyArray<ProblemDetail>) =>
  new NotFound({ error: details === undefined || details.length === 0 ? { code: "not_found", message } : { code: "not_found", message, details } })
export const conflict = (message: string) => new Conflict({ error: { code: "conflict", message } })
export const changeRequestRequired = (message: string) => new Conflict({ error: { code: "change_request_required", message } })
/** The 412; `environment` when the version is that environment's configuration's (its ETag then names both). */
export const preconditionFailed = (message: string, currentVersion: number, environment?: string) =>
  new PreconditionFailed({
    error: {
      code: "precondition_failed",
      message,
      details: [{
        path: "If-Match",
        message: `the current version is ${environment === undefined ? etagOf(currentVersion) : configEtagOf(environment, currentVersion)}`
      }]
    }
  })
export const payloadTooLarge = () =>
  new PayloadTooLarge({ error: { code: "payload_too_large", message: "The request body is larger than 1 MiB." } })
export const unsupportedMediaType = () =>
  new UnsupportedMediaType({
    error: { code: "unsupported_media_type", message: "Requests with a body must send Content-Type: application/json." }
  })
/** The 415 of a key list upload sent as anything but text. */
export const notKeyListText = () =>
  new UnsupportedMediaType({
    error: { code: "unsupported_media_type", message: "A key list is sent as Content-Type: text/plain (one key a line) or text/csv (with a header row)." }
  })
/** The 429 of too many failed sign-ins; the handler adds `Retry-After`. */
export const signInLimited = (message: string) => new SignInLimited({ error: { code: "rate_limited", message } })
export const internalError = () => new InternalError({ error: { code: "internal_error", message: INTERNAL_MESSAGE } })
export const unavailable = (message: string) => new Unavailable({ error: { code: "unavailable", message } })
export const methodNotAllowed = (method: string, path: string, allow: string) =>
  new MethodNotAllowed({ error: { code: "method_not_allowed", message: `${method} is not allowed on ${path}; it answers ${allow}.` } })
export const routeNotFound = (method: string, path: string) => notFound(`No route for ${method} ${path}.`)
export const nestedTooDeeply = (maxDepth: number) =>
  badRequest("The request body is nested too deeply.", [{ path: "", message: `arrays and objects nest deeper than ${maxDepth} levels` }])
export const malformedJson = () =>
  badRequest("The request body is not valid JSON.", [{ path: "", message: "malformed JSON" }])

/** A domain error or a storage failure, as the services raise them. */
export type DomainError =
  | InvalidRequest
  | ResourceNotFound
  | ResourceConflict
  | ChangeRequestRequired
  | Unauthenticated
  | Forbidden
  | ServiceUnavailable
  | RateLimited
  | { readonly _tag: "StorageError"; readonly message: string }

/** Every failure a service raises: a domain error, a storage failure, or a missed `If-Match`. */
export type ServiceError = DomainError | VersionMismatch

/**
 * The one mapping, as a table: each service failure to its envelope (a storage failure becomes a
 * 500 whose message leaks nothing; callers log the cause, see `logInternal`). `EnvelopeOf` reads
 * its types from the same table, so a handler's error type is exactly the envelopes its service
 * call can produce, and the HttpApi declaration must list each of them (or the handler does not
 * compile).
 */
const ENVELOPE = {
  InvalidRequest: (error: InvalidRequest) => badRequest(error.message, error.details),
  ResourceNotFound: (error: ResourceNotFound) => notFound(error.message, error.details),
  ResourceConflict: (error: ResourceConflict) => conflict(error.message),
  ChangeRequestRequired: (error: ChangeRequestRequired) => changeRequestRequired(error.message),
  Unauthenticated: (error: Unauthenticated) => unauthorized(error.message),
  Forbidden: (error: Forbidden) => forbidden(error.message),
  PreconditionFailed: (error: VersionMismatch) => preconditionFailed(error.message, error.currentVersion, error.environment),
  ServiceUnavailable: (error: ServiceUnavailable) => unavailable(error.message),
  RateLimited: (error: RateLimited) => signInLimited(error.message),
  StorageError: () => internalError()
} satisfies { readonly [Tag in ServiceError["_tag"]]: (error: Extract<ServiceError, { readonly _tag: Tag }>) => unknown }

/** The envelope a service failure becomes (a union of failures: the union of their envelopes). */
export type EnvelopeOf<E extends ServiceError> = ReturnType<(typeof ENVELOPE)[E["_tag"]]>

export const fromDomain = <E extends ServiceError>(error: E): EnvelopeOf<E> =>
  // One lookup for every tag: the table's type (checked above) pairs each failure with its envelope.
  (ENVELOPE[error._tag] as (error: ServiceError) => unknown)(error) as EnvelopeOf<E>

const STATUS: Record<ApiError["error"]["code"] | "precondition_failed" | "unavailable", number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  change_request_required: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  unavailable: 503
}

export const statusOf = (error: ApiError | PreconditionFailed | Unavailable): number => STATUS[error.error.code]

/** The wire form, as plain data (what `JSON.stringify` writes). */
export const envelopeOf = <E extends ApiError | Unavailable | MethodNotAllowed>(error: E): { readonly error: E["error"] } => ({ error: error.error })

/** True for our envelope classes (already mapped). */
export const isApiError = (u: unknown): u is ApiError =>
  u instanceof BadRequest || u instanceof Unauthorized || u instanceof ForbiddenError || u instanceof NotFound ||
  u instanceof Conflict || u instanceof PayloadTooLarge || u instanceof UnsupportedMediaType ||
  u instanceof InternalError

const DOMAIN_TAGS = new Set(["InvalidRequest", "ResourceNotFound", "ResourceConflict", "ChangeRequestRequired", "Unauthenticated", "Forbidden", "ServiceUnavailable", "RateLimited", "StorageError"])

/** True for the domain errors `fromDomain` knows. */
export const isDomainError = (u: unknown): u is DomainError =>
  typeof u === "object" && u !== null && "_tag" in u && DOMAIN_TAGS.has((u as { _tag: string })._tag)
