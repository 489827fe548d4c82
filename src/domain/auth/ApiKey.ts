import { Schema } from "effect"
import { Timestamp } from "../definitions/Ids.js"

export const ApiKeyType = Schema.Literal("server", "client")
export type ApiKeyType = typeof ApiKeyType.Type

/** A stored API key. Only the SHA-256 hash of the secret is ever kept. */
export const ApiKey = Schema.Struct({
  id: Schema.String,
  type: ApiKeyType,
  /** null for a global server key. */
  projectId: Schema.NullOr(Schema.String),
  name: Schema.String,
  /** The first characters of the key (e.g. `srv_AbCd`), so a person can tell keys apart. */
  prefix: Schema.String,
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp)
})
export type ApiKey = typeof ApiKey.Type

/** Who is calling, once the key is known. */
export type Principal =
  | { readonly _tag: "GlobalServer"; readonly keyId: string }
  | { readonly _tag: "ProjectServer"; readonly keyId: string; readonly projectId: string }
  | { readonly _tag: "Client"; readonly keyId: string; readonly projectId: string | null }
