/**
 * A role in a project, as the API and storage read and write it. The roles and what each may do
 * are the pure table of Grants.ts (shared with the dashboard); this is their Schema.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { ROLES } from "./Grants.js"

export const Role = Schema.Literal(...ROLES)
export type Role = typeof Role.Type

export const Membership = Schema.Struct({
  projectId: Schema.String,
  role: Role
}).annotations(documentName("Membership"))
export type Membership = typeof Membership.Type
