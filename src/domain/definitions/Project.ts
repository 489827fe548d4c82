import * as Schema from "effect/Schema"
import { Key, ProjectId, Timestamp } from "./Ids.js"
import { Text } from "./Text.js"
import { documentName } from "../DocumentName.js"

export const Project = Schema.Struct({
  id: ProjectId,
  name: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations(documentName("Project"))
export type Project = typeof Project.Type

export const CreateProjectInput = Schema.Struct({
  id: ProjectId,
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(120))
}).annotations(documentName("CreateProjectInput"))
export type CreateProjectInput = typeof CreateProjectInput.Type

/**
 * What client keys may read of an environment: `full` (the specification's default) lets them
 * fetch `GET /v1/config`, rules and segments included; `evaluated` gives them evaluated answers
 * only (evaluate, OFREP, stream) and refuses them the configuration. Server keys always get it.
 */
export const ClientConfig = Schema.Literal("full", "evaluated").annotations({
  description: "What client keys may read: `full` (default) also `GET /v1/config`, rules and segments included; `evaluated` only evaluated answers (evaluate, OFREP, stream): `GET /v1/config` and `POST /v1/explain` answer them 403. Server keys always get the configuration."
})
export type ClientConfig = typeof ClientConfig.Type

export const DEFAULT_CLIENT_CONFIG: ClientConfig = "full"

/** How many approvals a change request to a protected environment needs: 1 to 5 (default 1). */
export const RequiredApprovals = Schema.Int.pipe(
  // Its own words: the description below is a sentence, which a 400 would otherwise quote as the type expected.
  Schema.between(1, 5, { message: () => "must be a whole number from 1 to 5" })
).annotations({
  description: "Approvals a change request to this environment needs before it can be applied (1-5)."
})
export type RequiredApprovals = typeof RequiredApprovals.Type

export const DEFAULT_REQUIRED_APPROVALS = 1

export const Environment = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  key: Key,
  name: Schema.String,
  clientConfig: ClientConfig,
  /** People change its targeting, schedules and copies into it only through approved change requests. */
  protected: Schema.Boolean.annotations({
    description: "People change this environment's targeting, schedules and copies into it only through an approved change request (409 `change_request_required` otherwise), and may not delete a flag, rewrite or remove a variation, or change a segment its targeting names; server keys keep writing directly."
  }),
  requiredApprovals: RequiredApprovals,
  createdAt: Timestamp
}).annotations(documentName("Environment"))
export type Environment = typeof Environment.Type

export const CreateEnvironmentInput = Schema.Struct({
  key: Key,
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(120))
}).annotations(documentName("CreateEnvironmentInput"))
export type CreateEnvironmentInput = typeof CreateEnvironmentInput.Type

/** `PATCH /v1/projects/{p}/environments/{e}`: the fields given change, the others stay. */
export const UpdateEnvironmentInput = Schema.Struct({
  name: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(120))),
  clientConfig: Schema.optional(ClientConfig),
  protected: Schema.optional(Schema.Boolean),
  requiredApprovals: Schema.optional(RequiredApprovals)
}).annotations(documentName("UpdateEnvironmentInput"))
export type UpdateEnvironmentInput = typeof UpdateEnvironmentInput.Type
