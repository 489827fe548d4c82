/**
 * What whoever is signed in may do in a project, so the pages hide or disable the controls their
 * role does not allow. The API decides in the end (it refuses with 403 and the page shows why);
 * this only spares people buttons that cannot work.
 *
 * A server key is judged by the API alone: the page shows every control and the API's answer.
 *
 * The roles table is the domain's own (src/domain/people/Grants.ts, pure data: no Effect reaches
 * the bundle), so a change to it changes the controls offered with no change here.
 */
import { type Permission, type Role, roleAllows } from "../../src/domain/people/Grants.js"
import { me, projectId, serverKey } from "./session.js"

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
  return role !== null && roleAllows(role, permission)
}

/** A global administrator: every project, and the people (the Users page). */
export const isGlobalAdmin = (): boolean => me.value?.user.admin === true
