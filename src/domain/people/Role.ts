/**
 * Roles per project and what each may do: the one table that every check reads (the HTTP
 * middleware, the dashboard's controls through `GET /v1/me`, the docs' roles table).
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"

export const Role = Schema.Literal("viewer", "editor", "admin")
export type Role = typeof Role.Type

export const Membership = Schema.Struct({
  projectId: Schema.String,
  role: Role
}).annotations(documentName("Membership"))
export type Membership = typeof Membership.Type

/**
 * What a management request needs of its caller in a project:
 * - `read`: flags, targeting, segments, environments, audit, insights, schedules, change requests;
 * - `write`: flags, targeting, segments, schedules (where the environment is not protected);
 * - `propose`: open a change request;
 * - `approve`: approve someone else's change request;
 * - `manage`: environments, webhooks, API keys, members.
 */
export type Permission = "read" | "write" | "propose" | "approve" | "manage"

/** The roles table of docs/people.md, as data. */
export const GRANTS: { readonly [R in Role]: ReadonlyArray<Permission> } = {
  viewer: ["read"],
  editor: ["read", "write", "propose"],
  admin: ["read", "write", "propose", "approve", "manage"]
}

export const roleAllows = (role: Role, permission: Permission): boolean => GRANTS[role].includes(permission)
