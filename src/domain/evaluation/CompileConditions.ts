/**
 * Compiles conditions (Compile.ts compiles the flags that hold them): each to its operator's
 * predicate with its values prepared (regexes compiled, `in` values in Sets), a segment reference to
 * the segment's compiled conditions, an `anyOf` group to its compiled lists. Definition problems are
 * thrown as DefinitionError, which Compile.ts turns into the flag's ERROR result.
 */
import { isGroupShaped } from "../conditions/ConditionItems.js"
import { isAttributeOperator, isSegmentOperator, type SegmentOperatorName } from "../conditions/OperatorTable.js"
import type { RegexEngine } from "../conditions/RegexEngine.js"
import { type CompiledSegments, isProblem } from "./CompileSegments.js"
import { hasStringShortcut, OPERATORS, type OperatorDef } from "./Operators.js"
import { type PropertyReader, propertyReader } from "./jit/PropertyReader.js"
import { type CompiledCondition, KIND_ATTRIBUTE, KIND_GROUP, KIND_IN_SEGMENT, KIND_NOT_IN_SEGMENT } from "./Compiled.js"

const SEGMENT_KINDS: Record<SegmentOperatorName, number> = { inSegment: KIND_IN_SEGMENT, notInSegment: KIND_NOT_IN_SEGMENT }

type ErrorCode = "INVALID_DEFINITION" | "SEGMENT_NOT_FOUND" | "SEGMENT_LIST_NOT_LOADED" | "VARIATION_NOT_FOUND"

/** A definition problem found while compiling; becomes the `error` of an ERROR result as "CODE: message". */
export class DefinitionError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
  }
}

export const fail = (message: string, code: ErrorCode = "INVALID_DEFINITION"): never => {
  throw new DefinitionError(code, message)
}

export const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Names an ordinary object inherits. Attribute records are plain JSON objects, so only these
 * names need the (slower) own-property check on the hot path.
 */
export const inheritable = (name: string): boolean => name in Object.prototype

type Segments = CompiledSegments

/** Segment conditions read no attribute themselves (their segments' conditions do). */
const readNothing: PropertyReader = () => undefined

const NO_LISTS: ReadonlyArray<ReadonlyArray<CompiledCondition>> = []

/**
 * A condition that reads no attribute itself (a segment reference, a group): its parts do. Every
 * compiled condition has every field, in the attribute condition's order, so all share one shape.
 */
const readingNothing = (
  kind: number,
  operator: string,
  values: ReadonlyArray<unknown>,
  negate: boolean,
  segments: CompiledCondition["segments"],
  segmentKeys: ReadonlyArray<string>,
  lists: CompiledCondition["lists"]
): CompiledCondition => ({
  kind,
  operator,
  values,
  isKey: false,
  attribute: "",
  ownOnly: false,
  read: readNothing,
  op: OPERATORS.exists,
  prepared: null,
  stringShortcut: false,
  negate,
  segments,
  segmentKeys,
  lists
})

/**
 * A group: its lists' conditions compiled like any other. Validation refuses an empty group, an
 * empty list and a group inside a group; a configuration that has one anyway (written by hand)
 * cannot be evaluated rather than guessed at.
 */
const compileGroup = (lists: unknown, segments: Segments | null, regex: RegexEngine): CompiledCondition => {
  if (!Array.isArray(lists) || lists.length === 0) return fail("a group (anyOf) has no lists")
  const compiled = lists.map((list: unknown) => {
    if (!Array.isArray(list) || list.length === 0) return fail("a list of a group (anyOf) has no conditions")
    return list.map((c: unknown) => (isGroupShaped(c) ? fail("a group (anyOf) holds a group") : compileCondition(c, segments, regex)))
  })
  return readingNothing(KIND_GROUP, "anyOf", [], false, [], [], compiled)
}

const compileCondition = (raw: unknown, segments: Segments | null, regex: RegexEngine): CompiledCondition => {
  if (!isRecord(raw)) return fail("a condition is not an object")
  if (isGroupShaped(raw)) return compileGroup(raw.anyOf, segments, regex)
  const operator = raw.operator
  const values: ReadonlyArray<unknown> = Array.isArray(raw.values) ? raw.values : fail(`condition ${String(operator)} has no values array`)
  const negate = raw.negate === true
  if (isSegmentOperator(operator)) {
    if (segments === null) return fail("a segment condition references segments")
    const resolved = values.map((key) => {
      const segment = typeof key === "string" ? segments.get(key) : undefined
      if (segment === undefined) return fail(`segment ${JSON.stringify(key)} does not exist`, "SEGMENT_NOT_FOUND")
      if (isProblem(segment)) {
        return segment.code === "SEGMENT_LIST_NOT_LOADED" ? fail(segment.message, segment.code) : fail(`segment ${JSON.stringify(key)} cannot be evaluated: ${segment.message}`)
      }
      return segment
    })
    return readingNothing(SEGMENT_KINDS[operator], operator, values, negate, resolved, values as ReadonlyArray<string>, NO_LISTS)
  }
  if (!isAttributeOperator(operator)) return fail(`unknown operator ${JSON.stringify(operator)}`)
  const attribute = raw.attribute
  if (typeof attribute !== "string" || attribute.length === 0) return fail(`condition ${operator} has no attribute`)
  const op = OPERATORS[operator]
  return {
    kind: KIND_ATTRIBUTE,
    operator,
    values,
    isKey: attribute === "key",
    attribute,
    ownOnly: inheritable(attribute),
    read: propertyReader(attribute),
    op,
    prepared: op.prepare(values, regex),
    stringShortcut: hasStringShortcut(op),
    negate,
    segments: [],
    segmentKeys: [],
    lists: NO_LISTS
  }
}

export const compileConditions = (raw: unknown, segments: Segments | null, regex: RegexEngine): ReadonlyArray<CompiledCondition> =>
  Array.isArray(raw) ? raw.map((c) => compileCondition(c, segments, regex)) : fail("conditions is not an array")
