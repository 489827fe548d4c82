/**
 * The flags list a page at a time (`GET /v1/projects/{p}/flags?limit=&cursor=&q=&type=&status=`):
 * the server narrows by search text, type and staleness and answers one page in key order with the
 * cursor of the next, so a project of thousands of flags sends and draws 50 at a time. Going back
 * is the cursor of the page before, which the page keeps (the API answers forward only).
 */
import { projectPath, request } from "./api.js"
import type { FlagPage, FlagType } from "./types.js"

/** Flags on one page of the list. */
export const PAGE_SIZE = 50

/** What the list is narrowed to: a search text (key or name), one type or all (""), stale flags only. */
export interface FlagFilter {
  readonly q: string
  readonly type: FlagType | ""
  readonly onlyStale: boolean
}

export const NO_FILTER: FlagFilter = { q: "", type: "", onlyStale: false }

/** The path of the page after `cursor` (null: the first page) of the flags `filter` keeps. */
export const flagPagePath = (projectId: string, filter: FlagFilter, cursor: string | null, limit = PAGE_SIZE): string => {
  const query = new URLSearchParams({ limit: String(limit) })
  if (filter.q.trim() !== "") query.set("q", filter.q.trim())
  if (filter.type !== "") query.set("type", filter.type)
  if (filter.onlyStale) query.set("status", "stale")
  if (cursor !== null) query.set("cursor", cursor)
  return projectPath(projectId, `/flags?${query.toString()}`)
}

export const loadFlagPage = (projectId: string, filter: FlagFilter, cursor: string | null): Promise<FlagPage> =>
  request<FlagPage>("GET", flagPagePath(projectId, filter, cursor))
