import * as Schema from "effect/Schema"
/**
 * The one failure every storage port may raise: the backend could not do what was asked
 * (connection lost, disk full, a bug in a query). Services pass it through; the HTTP layer
 * answers 500 without leaking `cause`.
 */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect)
}) {}

/**
 * A unique key already exists (a project id, or a flag / segment / environment key within its
 * project, an API key hash). Services turn it into `ResourceConflict`.
 */
export class DuplicateKey extends Schema.TaggedError<DuplicateKey>()("DuplicateKey", {
  entity: Schema.String,
  key: Schema.String
}) {
  override get message(): string {
    return `${this.entity} '${this.key}' already exists`
  }
}

/**
 * A compare-and-set write found another version than the one it was based on (someone else wrote
 * in between). `current` is the stored version. Services turn it into `PreconditionFailed`.
 */
export class VersionConflict extends Schema.TaggedError<VersionConflict>()("VersionConflict", {
  entity: Schema.String,
  key: Schema.String,
  current: Schema.Number
}) {
  override get message(): string {
    return `${this.entity} '${this.key}' is at version ${this.current}`
  }
}

/** A write addressed a row that does not exist. Services turn it into `ResourceNotFound`. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  entity: Schema.String,
  key: Schema.String
}) {
  override get message(): string {
    return `${this.entity} '${this.key}' not found`
  }
}
