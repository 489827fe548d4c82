/**
 * A segment's key lists in the project file (docs/guide/flags-as-code.md, "Key lists"): never
 * inlined, each referenced by a file of its own beside the project file, one key a line
 * (`keys: ./beta-testers.included.txt`, or `keys: { included: ..., excluded: ... }`). Only the
 * command line reads those files (`flagport apply`, relative to the project file); a server asked
 * to apply a file over HTTP cannot, and refuses one that names them (ValidateFile.ts).
 *
 * A segment with `keys` says what both of its lists are: a list it does not name is to be empty. A
 * segment without `keys` leaves its lists as they are (so files written before lists existed keep
 * their meaning).
 *
 * Whether a stored list is already what a file holds is decided by a digest of the distinct keys
 * (evaluation/KeyListDigest.ts), so applying the same file again replaces nothing and sends no key.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Problem } from "../Errors.js"
import type { KeyListName } from "../definitions/SegmentKeys.js"

/** A list's file: a path, relative to the project file's folder (or absolute). */
const ListPath = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1024)).annotations({
  description: "A file of keys, one a line (text/plain; a .csv file is read as CSV with a header row), relative to the project file's folder."
})

/** `keys:` of a segment in the file: the included list's file, or each list's. */
export const FileKeyLists = Schema.Union(
  ListPath,
  Schema.Struct({
    included: Schema.optional(ListPath),
    excluded: Schema.optional(ListPath)
  })
).annotations({
  description:
    "The segment's key lists, each a file beside the project file (read by `flagport apply`, written by `flagport export --out`): " +
    "a path is the `included` list's; an object names either list. A list not named is to be empty; a segment without `keys` keeps its lists as they are. " +
    "Only the command line reads these files: POST .../apply refuses a file with `keys` (400); upload lists with PUT .../segments/{segmentKey}/keys/{list}."
})
export type FileKeyLists = typeof FileKeyLists.Type

/** One list a file names: which segment (and its index in the file), which list, and the file. */
export interface ListReference {
  readonly segmentIndex: number
  readonly segmentKey: string
  readonly list: KeyListName
  /** The file as written in the project file; empty for a list the segment's `keys` leaves out (to be empty). */
  readonly path: string
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const decodeLists = Schema.decodeUnknownEither(FileKeyLists, { onExcessProperty: "error" })

/**
 * The lists the parsed file's segments describe (both lists of each segment with `keys`), and the
 * problems of their `keys` (paths in the file). Read from the raw value, before the file is
 * checked: the command line reads the lists' files while the rest is planned.
 */
export const listReferences = (input: unknown): Either.Either<ReadonlyArray<ListReference>, ReadonlyArray<Problem>> => {
  const references: Array<ListReference> = []
  const problems: Array<Problem> = []
  const segments = isRecord(input) && Array.isArray(input.segments) ? input.segments : []
  segments.forEach((segment: unknown, i) => {
    if (!isRecord(segment) || !("keys" in segment)) return
    const decoded = decodeLists(segment.keys)
    if (Either.isLeft(decoded)) {
      problems.push({ path: `segments[${i}].keys`, message: "must be a file's path (the included list), or { included, excluded } with a path each" })
      return
    }
    if (typeof segment.key !== "string") return // the segment's own check says what is wrong
    const lists = typeof decoded.right === "string" ? { included: decoded.right } : decoded.right
    for (const list of ["included", "excluded"] as const) {
      references.push({ segmentIndex: i, segmentKey: segment.key, list, path: lists[list] ?? "" })
    }
  })
  return problems.length > 0 ? Either.left(problems) : Either.right(references)
}

/** The file as the server plans it: every segment's `keys` taken out (the lists are applied apart). */
export const withoutKeyLists = (input: unknown): unknown => {
  if (!isRecord(input) || !Array.isArray(input.segments)) return input
  return {
    ...input,
    segments: input.segments.map((segment: unknown) => {
      if (!isRecord(segment) || !("keys" in segment)) return segment
      const { keys: _keys, ...rest } = segment
      return rest
    })
  }
}

/** Where export writes a list, relative to the project file: `./<segment>.<list>.txt` (one name per segment and list). */
export const listFileName = (segmentKey: string, list: KeyListName): string => `./${segmentKey}.${list}.txt`

/**
 * `keys:` as export writes it for the non-empty lists of a segment: the short form when only the
 * included list has keys, else the object; undefined when both are empty.
 */
export const exportedKeyLists = (segmentKey: string, nonEmpty: ReadonlyArray<KeyListName>): FileKeyLists | undefined => {
  if (nonEmpty.length === 0) return undefined
  if (nonEmpty.length === 1 && nonEmpty[0] === "included") return listFileName(segmentKey, "included")
  return Object.fromEntries((["included", "excluded"] as const).filter((l) => nonEmpty.includes(l)).map((l) => [l, listFileName(segmentKey, l)]))
}
