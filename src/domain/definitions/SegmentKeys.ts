/**
 * A segment's lists of keys: `included` (the context matches whatever the conditions say) and
 * `excluded` (it never matches), each up to `segmentKeysPerList` keys, kept apart from the
 * segment's JSON and versioned on their own (docs/guide/evaluation.md, "Segments with lists of keys").
 */
import * as Schema from "effect/Schema"
import type { Problem } from "../Errors.js"
import { atMost, atMostLength, limit } from "../Limits.js"
import { documentName } from "../DocumentName.js"
import { Timestamp } from "./Ids.js"

export const KeyListName = Schema.Literal("included", "excluded").annotations({
  description: "`included`: these keys are in the segment whatever its conditions say; `excluded`: these keys never are."
})
export type KeyListName = typeof KeyListName.Type

export const KEY_LIST_NAMES: ReadonlyArray<KeyListName> = ["included", "excluded"]

/** What a list is now: its version (0 before its first write, then one more per write) and its size. */
export const KeyListInfo = Schema.Struct({
  list: KeyListName,
  version: Schema.Int.annotations({ description: "0 for a list never written; each replace or change adds one." }),
  count: Schema.Int.annotations({ description: "How many distinct keys the list holds." }),
  updatedAt: Schema.NullOr(Timestamp).annotations({ description: "When the list was last written; null when never." })
}).annotations(documentName("SegmentKeyList"))
export type KeyListInfo = typeof KeyListInfo.Type

/** Both lists of a segment (`GET /v1/projects/{p}/segments/{s}/keys`). */
export const KeyLists = Schema.Struct({ included: KeyListInfo, excluded: KeyListInfo }).annotations(documentName("SegmentKeyLists"))
export type KeyLists = typeof KeyLists.Type

export const emptyList = (list: KeyListName): KeyListInfo => ({ list, version: 0, count: 0, updatedAt: null })

/** Body of `PATCH /v1/projects/{p}/segments/{s}/keys/{list}`: keys to add and to remove (removal wins when a key is in both). */
export const PatchKeysInput = Schema.Struct({
  add: Schema.optional(Schema.Array(Schema.String)),
  remove: Schema.optional(Schema.Array(Schema.String))
}).annotations(documentName("PatchSegmentKeysInput"))
export type PatchKeysInput = typeof PatchKeysInput.Type

/** The problem with one key, or undefined: 1 to `segmentKeyLength` characters, no line break. */
export const keyProblem = (key: string): string | undefined => {
  if (key.length === 0) return "must not be empty"
  if (key.length > limit("segmentKeyLength")) return atMostLength("segmentKeyLength")
  if (key.includes("\n") || key.includes("\r")) return "must not contain a line break"
  return undefined
}

/** Every problem of a PATCH body, with its path (at most the first 20 bad keys, so the answer stays small). */
export const validatePatch = (input: PatchKeysInput): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  for (const field of ["add", "remove"] as const) {
    const keys = input[field] ?? []
    if (keys.length > limit("segmentKeysPerPatch")) problems.push({ path: field, message: atMost("segmentKeysPerPatch") })
    for (let i = 0; i < keys.length && problems.length < 20; i++) {
      const problem = keyProblem(keys[i]!)
      if (problem !== undefined) problems.push({ path: `${field}[${i}]`, message: problem })
    }
  }
  return problems
}

/** The problem of a list that would hold `count` keys, or undefined. */
export const countProblem = (count: number): string | undefined =>
  count > limit("segmentKeysPerList") ? atMost("segmentKeysPerList") : undefined

/**
 * One version's change of a list by PATCH, as the change log keeps it: the keys it actually added
 * and removed (a key added that was there already, or removed that was not, is in neither). A
 * holder of the version before applies it to reach `version`, by hashes or by keys
 * (KeyListCache.ts, an SDK through `GET /v1/config/segments/{s}/{list}`).
 */
export interface KeyListChange {
  readonly version: number
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
}

/**
 * How many of a list's latest changes the log keeps (each at most `segmentKeysPerPatch` keys): a
 * holder further behind, or behind a replace (which keeps none of the changes before it), reads
 * the list whole.
 */
export const KEY_LIST_CHANGES_KEPT = 64

/**
 * The one change leading from version `since` to version `to`, from the log's changes after
 * `since` (in version order): each key's last change counts (added, then removed: removed).
 * Undefined when the log does not lead there (a replace or the log's end in between: a gap) or the
 * change would carry more than `maxKeys` keys (the whole list is then the cheaper read).
 */
export const changeBetween = (
  log: ReadonlyArray<KeyListChange>,
  since: number,
  to: number,
  maxKeys: number
): { readonly added: ReadonlyArray<string>; readonly removed: ReadonlyArray<string> } | undefined => {
  const last = new Map<string, boolean>()
  let version = since
  for (const change of log) {
    if (change.version > to) break
    if (change.version !== version + 1) return undefined
    version = change.version
    for (const key of change.added) last.set(key, true)
    for (const key of change.removed) last.set(key, false)
    if (last.size > maxKeys) return undefined
  }
  if (version !== to) return undefined
  const added: Array<string> = []
  const removed: Array<string> = []
  for (const [key, present] of last) (present ? added : removed).push(key)
  return { added, removed }
}
