/**
 * The roles per project and what each may do: the one table that every check reads (the HTTP
 * middleware, the use cases' rules, the dashboard's controls, the docs' roles table). `Role.ts`
 * builds the roles' Schema on the same list.
 *
 * Pure data with no imports, so the dashboard bundles it as it is (no Effect in the browser), as
 * conditions/OperatorTable.ts.
 */

/** The roles, lowest first. */
export const ROLES = ["viewer", "editor", "admin"] as const
export type Role = (typeof ROLES)[number]

/**
 * What a management request needs of its caller in a project:
 * - `read`: flags, targeting, segments, environments, audit, insights, schedules, change requests;
 * - `write`: flags, targeting, segments, schedules (where the environment is not protected);
 * - `propose`: open a change request;
 * - `approve`: approve someone else's change request;
 * - `manage`: environments, webhooks, API keys, members.
 */
export type Permission = "read" | "write" | "propose" | "approve" | "manage"

/** The roles table of docs/guide/people.md, as data. */
export const GRANTS: { readonly [R in Role]: ReadonlyArray<Permission> } = {
  viewer: ["read"],
  editor: ["read", "write", "propose"],
  admin: ["read", "write", "propose", "approve", "manage"]
}

export const roleAllows = (role: Role, permission: Permission): boolean => GRANTS[role].includes(permission)
