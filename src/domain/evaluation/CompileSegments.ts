/**
 * The segments of a snapshot, compiled once (Compile.ts resolves segment conditions to them): each
 * segment's conditions, and its key lists when it has some. A segment's lists are named by the
 * snapshot (`included` / `excluded` with their versions); their keys come from whoever compiles
 * (`KeyListSource`: the server's storage, an SDK's fetched lists), never from the snapshot itself.
 * A named list the source does not hold makes the segment unevaluable (`SEGMENT_LIST_NOT_LOADED`),
 * so a flag using it answers ERROR rather than treating the list as empty: an empty `excluded`
 * would let everyone in, an empty `included` keep everyone out.
 */
import type { CompiledCondition, CompiledKeyLists, CompiledSegment } from "./Compiled.js"
import type { KeySet } from "./KeySet.js"
import { propertyReader } from "./jit/PropertyReader.js"

export type KeyListName = "included" | "excluded"

/** The keys of a segment's list, as the compiler's caller holds them; undefined when not loaded. */
export type KeyListSource = (segmentKey: string, list: KeyListName) => KeySet | undefined

/** Why a segment cannot be evaluated, reported by the flags that use it. */
export interface SegmentProblem {
  readonly code: "INVALID_DEFINITION" | "SEGMENT_LIST_NOT_LOADED"
  readonly message: string
}

export type CompiledSegments = ReadonlyMap<string, CompiledSegment | SegmentProblem>

export const isProblem = (segment: CompiledSegment | SegmentProblem): segment is SegmentProblem => "code" in segment

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const NO_LISTS_SOURCE: KeyListSource = () => undefined

/** The lists a snapshot segment names, compiled; null when it names none. */
const compileLists = (segment: Record<string, unknown>, key: string, source: KeyListSource): CompiledKeyLists | SegmentProblem | null => {
  const named = (["included", "excluded"] as const).filter((list) => isRecord(segment[list]))
  if (named.length === 0) return null
  const sets: Partial<Record<KeyListName, KeySet>> = {}
  for (const list of named) {
    const set = source(key, list)
    if (set === undefined) return { code: "SEGMENT_LIST_NOT_LOADED", message: `the ${list} keys of segment ${JSON.stringify(key)} are not loaded` }
    sets[list] = set
  }
  const attribute = typeof segment.keyAttribute === "string" && segment.keyAttribute.length > 0 ? segment.keyAttribute : "key"
  return {
    included: sets.included ?? null,
    excluded: sets.excluded ?? null,
    isKey: attribute === "key",
    attribute,
    ownOnly: attribute in Object.prototype,
    read: propertyReader(attribute)
  }
}

/** Segments by key; a segment that cannot be compiled maps to its problem. `conditions` compiles a segment's conditions (it throws its problem). */
export const compileSegments = (
  raw: unknown,
  conditions: (raw: unknown) => ReadonlyArray<CompiledCondition>,
  source: KeyListSource = NO_LISTS_SOURCE
): CompiledSegments => {
  const out = new Map<string, CompiledSegment | SegmentProblem>()
  if (!Array.isArray(raw)) return out
  for (const segment of raw) {
    if (!isRecord(segment) || typeof segment.key !== "string" || out.has(segment.key)) continue
    try {
      const lists = compileLists(segment, segment.key, source)
      out.set(segment.key, lists !== null && "code" in lists ? lists : { conditions: conditions(segment.conditions), lists })
    } catch (e) {
      out.set(segment.key, { code: "INVALID_DEFINITION", message: e instanceof Error ? e.message : "invalid segment" })
    }
  }
  return out
}
