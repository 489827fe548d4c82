import * as Schema from "effect/Schema"
/** One problem in a request, with the JSON path where it was found (e.g. `variations[1].value`). */
export const Problem = Schema.Struct({
  path: Schema.String,
  message: Schema.String
})
export type Problem = typeof Problem.Type

/** Input that cannot be accepted; `details` lists every problem, not only the first. */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String,
  details: Schema.Array(Problem)
}) {}

/** A named resource does not exist (in the caller's project). */
export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {
  message: Schema.String,
  /** What may help the caller find it (the near match, the known names), beside the message (NotFound.ts). */
  details: Schema.optional(Schema.Array(Problem))
}) {}

/** The request collides with existing state: a duplicate key, or a reference still in use. */
export class ResourceConflict extends Schema.TaggedError<ResourceConflict>()("ResourceConflict", {
  message: Schema.String
}) {}

/** `If-Match` named a version that is not the current one (or the flag changed during the write). */
export class PreconditionFailed extends Schema.TaggedError<PreconditionFailed>()("PreconditionFailed", {
  message: Schema.String,
  currentVersion: Schema.Number,
  /** Set when the version is one environment's configuration's, not the flag's. */
  environment: Schema.optional(Schema.String)
}) {}

/** Missing, malformed or unknown credentials. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  message: Schema.String
}) {}

/** The server cannot take this now (a bounded backlog is full); the same request may succeed later. */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: Schema.String
}) {}

/** Known credentials that may not do this. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {}

/**
 * Too many failed sign-ins for one email (docs/guide/people.md): refused, even with the right password,
 * until `retryAfterSeconds` have passed (the `Retry-After` header).
 */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retryAfterSeconds: Schema.Number
}) {}

/**
 * A person's direct write to a protected environment (docs/guide/change-requests.md): it needs an
 * approved change request. 409 `change_request_required`.
 */
export class ChangeRequestRequired extends Schema.TaggedError<ChangeRequestRequired>()("ChangeRequestRequired", {
  message: Schema.String
}) {}
