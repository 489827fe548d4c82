/**
 * What whoever is signed in may do in a project, so the pages hide or disable the controls their
 * role does not allow. The API decides in the end (it refuses with 403 and the page shows why);
 * this only spares people buttons that cannot work.
 *
 * A server key is judged by the API alone: the page shows every control and the API's answer.
 */
import { me, projectId, serverKey } from "./session.js"
import type { Permission, Role } from "./types.js"

/**
 * The roles table (contract-people.md, docs/people.md): the same data as the domain's `GRANTS`
 * (test/ui/Logic.test.ts holds them equal), copied because importing it would bring Effect's
 * Schema into the browser bundle.
 */
export const GRANTS: { readonly [R in Role]: ReadonlyArray<Permission> } = {
  viewer: ["read"],
  editor: ["read", "write", "propose"],
  admin: ["read", "write", "propose", "approve", "manage"]
}

/** The signed-in person's role in `project` (a global administrator is an admin everywhere); null: none, or a key. */
export const roleIn = (project: string | null): Role | null => {
  const who = me.value
  if (who === null) return null
  if (who.user.admin) return "admin"
  if (project === null) return null
  return who.memberships.find((m) => m.projectId === project)?.role ?? null
}

/** Whether to offer a control needing `permission` in `project` (the chosen one by default). */
export const allows = (permission: Permission, project: string | null = projectId.value): boolean => {
  if (serverKey.value !== null) return true
  const role = roleIn(project)
  return role !== null && GRANTS[role].includes(permission)
}

/** A global administrator: every project, and the people (the Users page). */
export const isGlobalAdmin = (): boolean => me.value?.user.admin === true
