/**
 * The declarative file of one project (flags as code, docs/guide/flags-as-code.md): its environments,
 * segments and flags, each flag with its targeting per environment. Defined once here: the JSON
 * Schema editors use (`docs/project-file.schema.json`, served at `/schemas/project-file.json`)
 * is generated from it, and `flagport apply` / `POST .../apply` decode with it.
 *
 * It speaks the API's words: every item is the JSON body of the matching write (`CreateSegmentInput`
 * is a segment, `RuleInput` a rule, `TargetingInput` less its `environment` plus the environment's
 * `key` a flag's configuration), and lists' items begin with their `key`. Nothing secret or
 * server-made is in it: no keys, webhooks, ids, versions, timestamps or usage.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { FlagType, Variation } from "../definitions/Flag.js"
import { Key, ProjectId } from "../definitions/Ids.js"
import { ClientConfig, RequiredApprovals } from "../definitions/Project.js"
import { CreateSegmentInput } from "../definitions/Segment.js"
import { Prerequisite, RuleInput } from "../definitions/Targeting.js"
import { Text } from "../definitions/Text.js"
import { CreateReleasePlanInput } from "../releaseplans/ReleasePlan.js"
import { FileKeyLists } from "./FileKeyLists.js"

/** The project the file describes; `apply` targets it unless told another (`--project`). */
export const FileProject = Schema.Struct({
  id: ProjectId,
  name: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(120)))
}).annotations({ ...documentName("FileProject"), description: "The project: its id (as in /v1/projects/{id}) and name." })
export type FileProject = typeof FileProject.Type

/** An environment: the body of its create (`key`, `name`) and of its PATCH (the settings). Absent settings are the defaults. */
export const FileEnvironment = Schema.Struct({
  key: Key,
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(120)),
  clientConfig: Schema.optional(ClientConfig),
  protected: Schema.optional(Schema.Boolean),
  requiredApprovals: Schema.optional(RequiredApprovals)
}).annotations({
  ...documentName("FileEnvironment"),
  description: "An environment; clientConfig (default full), protected (default false) and requiredApprovals (default 1) as on PATCH .../environments/{key}."
})
export type FileEnvironment = typeof FileEnvironment.Type

/**
 * A segment: the body of its create, and its key lists by file (FileKeyLists.ts: read by the
 * command line only, never inlined).
 */
export const FileSegment = Schema.Struct({ ...CreateSegmentInput.fields, keys: Schema.optional(FileKeyLists) }).annotations({
  ...documentName("FileSegment"),
  description: "A segment, as the body of POST .../segments, with its key lists as files beside the project file (`keys`)."
})
export type FileSegment = typeof FileSegment.Type

/**
 * A flag's configuration in one environment: the body of PUT .../targeting with the environment as
 * its `key`. `prerequisites` and `rules` may be left out (none). A rule without `id` keeps the id of
 * the rule at its place, or gets a new one.
 */
export const FileTargeting = Schema.Struct({
  key: Key,
  enabled: Schema.Boolean,
  defaultVariationKey: Schema.String,
  offVariationKey: Schema.String,
  prerequisites: Schema.optional(Schema.Array(Prerequisite)),
  rules: Schema.optional(Schema.Array(RuleInput))
}).annotations({
  ...documentName("FileTargeting"),
  description: "The flag's targeting in the environment `key`, as the body of PUT .../flags/{flag}/targeting."
})
export type FileTargeting = typeof FileTargeting.Type

/**
 * A release plan's definition: the body of POST .../flags/{flag}/release-plans, its `environment`
 * first. Only the definition: the plan's status, step and harm are the server's (FileReleasePlans.ts).
 */
export const FileReleasePlan = CreateReleasePlanInput.annotations({
  ...documentName("FileReleasePlan"),
  description:
    "A release plan of the flag in the environment `environment`, as the body of POST .../flags/{flag}/release-plans: at most one per environment. " +
    "apply makes it a draft, or changes the draft; it never changes a started plan (refused) nor starts one."
})
export type FileReleasePlan = typeof FileReleasePlan.Type

/**
 * A flag: the body of its create, and its targeting per environment. An environment left out of
 * `environments` keeps the configuration it has (a new flag's is disabled, as on create).
 */
export const FileFlag = Schema.Struct({
  key: Key,
  name: Schema.optional(Text),
  description: Schema.optional(Schema.NullOr(Text)),
  type: FlagType,
  variations: Schema.Array(Variation),
  environments: Schema.optional(Schema.Array(FileTargeting)),
  releasePlans: Schema.optional(Schema.Array(FileReleasePlan))
}).annotations({
  ...documentName("FileFlag"),
  description: "A flag, as the body of POST .../flags (name defaults to the key), with its targeting in each environment listed and its release plans."
})
export type FileFlag = typeof FileFlag.Type

/**
 * The whole file. Export writes environments in the project's order (creation), segments and flags
 * sorted by key, and everything inside them as stored.
 */
export const ProjectFile = Schema.Struct({
  $schema: Schema.optional(Schema.String.annotations({ description: "The address of this JSON Schema, for editors." })),
  project: FileProject,
  environments: Schema.optional(Schema.Array(FileEnvironment)),
  segments: Schema.optional(Schema.Array(FileSegment)),
  flags: Schema.optional(Schema.Array(FileFlag))
}).annotations({
  ...documentName("ProjectFile"),
  title: "Flagport project file",
  description: "One Flagport project as code: environments, segments and flags with their targeting per environment (flagport export / flagport apply)."
})
export type ProjectFile = typeof ProjectFile.Type
