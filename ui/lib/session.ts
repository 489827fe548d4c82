/**
 * Who is signed in: a person (by the session cookie) or a server key, and the chosen project.
 *
 * A person's session lives in an HttpOnly cookie the page never sees: same-origin requests carry
 * it, and the browser's `Origin` header satisfies the server's check on writes. What the page keeps
 * is who that is (`GET /v1/me`: the user and their memberships), to show their name and to hide
 * the controls their role does not allow.
 *
 * A server key (the secondary way in, for operators) lives in `sessionStorage` (gone when the tab
 * closes, never shared with other tabs) and travels only as the `Authorization` bearer. It is never
 * put in a URL and never logged. A request with a key is judged by the key, cookie or not.
 *
 * A project-scoped key, or a person in one project, lists just that project, which is chosen at
 * once; otherwise the person picks one.
 */
import { computed, signal } from "@preact/signals"
import type { Me, Project } from "./types.js"

const KEY_ITEM = "flagport.serverKey"
const PROJECT_ITEM = "flagport.projectId"

const read = (item: string): string | null => {
  try {
    return sessionStorage.getItem(item)
  } catch {
    return null
  }
}

export const serverKey = signal<string | null>(read(KEY_ITEM))
/** The person signed in by the session cookie; null when nobody is, or when a key is used. */
export const me = signal<Me | null>(null)
export const projects = signal<ReadonlyArray<Project>>([])
export const projectId = signal<string | null>(read(PROJECT_ITEM))
/** Why the sign-in page shows again (a session that ended on the server), if it does. */
export const signInNotice = signal<string | null>(null)

export const signedIn = computed(() => serverKey.value !== null || me.value !== null)

const keepProjects = (available: ReadonlyArray<Project>): void => {
  projects.value = available
  const kept = projectId.value
  chooseProject(available.some((p) => p.id === kept) ? kept : available.length === 1 ? available[0]!.id : null)
}

export const keepKey = (key: string, available: ReadonlyArray<Project>): void => {
  sessionStorage.setItem(KEY_ITEM, key)
  serverKey.value = key
  me.value = null
  signInNotice.value = null
  keepProjects(available)
}

/** A person signed in (by password, single sign-on or a setup link), with the projects they see. */
export const keepPerson = (who: Me, available: ReadonlyArray<Project>): void => {
  sessionStorage.removeItem(KEY_ITEM)
  serverKey.value = null
  me.value = who
  signInNotice.value = null
  keepProjects(available)
}

export const chooseProject = (id: string | null): void => {
  if (id === null) sessionStorage.removeItem(PROJECT_ITEM)
  else sessionStorage.setItem(PROJECT_ITEM, id)
  projectId.value = id
}

/** Forgets who is signed in, in this tab (the server's side of a session is ended by `account.ts`). */
export const signOut = (notice: string | null = null): void => {
  sessionStorage.removeItem(KEY_ITEM)
  sessionStorage.removeItem(PROJECT_ITEM)
  serverKey.value = null
  me.value = null
  projects.value = []
  projectId.value = null
  signInNotice.value = notice
}
