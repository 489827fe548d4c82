/** How people read on the pages: a person's name, roles in words, the roles offered in a choice. */
import type { Role, User } from "./types.js"

export const ROLES: ReadonlyArray<Role> = ["viewer", "editor", "admin"]

/** What each role may do, in a few words (the roles table of docs/guide/people.md). */
export const ROLE_HINTS: { readonly [R in Role]: string } = {
  viewer: "reads everything in the project",
  editor: "also changes flags, targeting, segments and schedules",
  admin: "also manages environments, webhooks, keys and members"
}

/** A person as a page names them: the name, or the email when they have none yet. */
export const personName = (user: User): string => (user.name.trim() === "" ? user.email : user.name)
