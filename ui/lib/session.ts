/**
 * Who is signed in: the server key and the chosen project.
 *
 * The key lives in `sessionStorage` (gone when the tab closes, never shared with other tabs) and
 * travels only as the `Authorization` bearer. It is never put in a URL and never logged.
 * A project-scoped key lists just its project, which is chosen at once; a global key lists every
 * project and the person picks one.
 */
import { signal } from "@preact/signals"
import type { Project } from "./types.js"

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
export const projects = signal<ReadonlyArray<Project>>([])
export const projectId = signal<string | null>(read(PROJECT_ITEM))

export const keepKey = (key: string, available: ReadonlyArray<Project>): void => {
  sessionStorage.setItem(KEY_ITEM, key)
  serverKey.value = key
  projects.value = available
  const kept = projectId.value
  chooseProject(available.some((p) => p.id === kept) ? kept : available.length === 1 ? available[0]!.id : null)
}

export const chooseProject = (id: string | null): void => {
  if (id === null) sessionStorage.removeItem(PROJECT_ITEM)
  else sessionStorage.setItem(PROJECT_ITEM, id)
  projectId.value = id
}

export const signOut = (): void => {
  sessionStorage.removeItem(KEY_ITEM)
  sessionStorage.removeItem(PROJECT_ITEM)
  serverKey.value = null
  projects.value = []
  projectId.value = null
}
