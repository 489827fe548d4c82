import * as Schema from "effect/Schema"
import { Timestamp } from "../definitions/Ids.js"
import { Text } from "../definitions/Text.js"
import { documentName } from "../DocumentName.js"

export const ApiKeyType = Schema.Literal("server", "client")
export type ApiKeyType = typeof ApiKeyType.Type

/** A stored API key. Only the SHA-256 hash of the secret is ever kept. */
export const ApiKey = Schema.Struct({
  id: Schema.String,
  type: ApiKeyType,
  /** null for a global server key. */
  projectId: Schema.NullOr(Schema.String),
  /**
   * null for a key valid in every environment of its scope; otherwise the one environment key
   * (of its project) the key may evaluate, download and stream.
   */
  environment: Schema.NullOr(Schema.String),
  name: Schema.String,
  /** The first characters of the key (e.g. `srv_AbCd`), so a person can tell keys apart. */
  prefix: Schema.String,
  createdAt: Timestamp,
  /**
   * The id of the person who made the key, themselves or through a key they made (whose maker it
   * inherits); null when the operator made it (command line) or it was made before makers were
   * recorded. The key is revoked when that person is disabled or may no longer manage its project.
   */
  createdBy: Schema.NullOr(Schema.String),
  lastUsedAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp)
}).annotations(documentName("ApiKey"))
export type ApiKey = typeof ApiKey.Type

/**
 * The body of `POST /v1/projects/{projectId}/keys`: the key is always scoped to that project, and
 * with `environment` also bound to that one environment of it (absent or null: every environment).
 */
export const CreateProjectKeyInput = Schema.Struct({
  type: ApiKeyType,
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(120)),
  environment: Schema.optional(Schema.NullOr(Text))
}).annotations(documentName("CreateProjectKeyInput"))
export type CreateProjectKeyInput = typeof CreateProjectKeyInput.Type

/** A key just made: its record plus the secret, shown this once. */
export const CreatedApiKey = Schema.Struct({
  ...ApiKey.fields,
  key: Schema.String
}).annotations(documentName("CreatedApiKey"))
export type CreatedApiKey = typeof CreatedApiKey.Type

/** Who is calling, once the key is known. */
export type Principal =
  | { readonly _tag: "GlobalServer"; readonly keyId: string }
  | { readonly _tag: "ProjectServer"; readonly keyId: string; readonly projectId: string; readonly environment: string | null }
  | { readonly _tag: "Client"; readonly keyId: string; readonly projectId: string | null; readonly environment: string | null }
