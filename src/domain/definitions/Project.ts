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

export const Environment = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  key: Key,
  name: Schema.String,
  createdAt: Timestamp
}).annotations(documentName("Environment"))
export type Environment = typeof Environment.Type

export const CreateEnvironmentInput = Schema.Struct({
  key: Key,
  name: Text.pipe(Schema.minLength(1), Schema.maxLength(120))
}).annotations(documentName("CreateEnvironmentInput"))
export type CreateEnvironmentInput = typeof CreateEnvironmentInput.Type
