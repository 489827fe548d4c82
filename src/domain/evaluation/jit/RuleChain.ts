/**
 * One flag's rules as one generated function: what the evaluator runs for a flag evaluated often
 * (Evaluator.ts, `HOT_AFTER`), instead of walking the compiled rules.
 *
 *   function chain(key, attributes) {
 *     r0: { let v = attributes === undefined ? undefined : attributes["country"];
 *           if (v === undefined || v === null || !(typeof v === "string" ? (v === "US" || v === "CA") : testAttribute(o0, v, p0))) break r0;
 *           ...
 *           return s0 }
 *     r2: { ...the rollout: the bucket value's hash, resumed from the seed's state written as numbers,
 *           compared with the slices' thresholds... }
 *     return null
 *   }
 *
 * *Why:* walking the compiled rules reads each condition's fields, dispatches on its kind and
 * operator, and calls through shared sites that see every condition of every flag; in the W2 benchmark
 * that was more than half the cost of an evaluation, twice a function written by hand for that one
 * flag. The generated function is such a function. *What it replaces:* the evaluator's own walk,
 * which still answers for a flag not yet hot, for explain (an observer sees every step), and where
 * code generation is forbidden. Conditions it has no inline form for (segments, groups, the
 * operators that parse dates or versions, a string operator's large value sets) call the walk's
 * own condition check (`check`), so each operator's meaning stays in Operators.ts; a segment
 * condition on one segment of key lists and no conditions is written out as its list's lookup.
 *
 * It answers what the walk answers, by construction and by test (test/domain/RuleChain.property.test.ts):
 * the same reads of the context in the same order (so a throwing getter throws at the same point),
 * the same result objects (the compiled rule's `result` and rollout `results`, never copies).
 *
 * Safety: names and strings enter the source only through `JSON.stringify` (a valid, fully escaped
 * string literal); numbers are the compiled integers; every object is passed in by reference.
 */
import type { CompiledCondition, CompiledFlag, CompiledRollout, CompiledRule, RuleChain as RuleChainOf } from "../Compiled.js"
import { KIND_ATTRIBUTE, KIND_IN_SEGMENT, KIND_NOT_IN_SEGMENT } from "../Compiled.js"
import { hashRest } from "../Murmur3.js"
import { type JsonSet, OPERATORS, testAttribute, testString } from "../Operators.js"

/** The first rule's result that serves the context, or null (the flag's fallthrough then). */
export type RuleChain = RuleChainOf

/** The walk's check of one condition, for those the chain calls rather than writes out. */
export type ConditionCheck = (condition: CompiledCondition, key: string | undefined, attributes: object | undefined) => boolean

let codegen = true

class Source {
  readonly refs: Array<unknown> = []
  ref(value: unknown): string {
    this.refs.push(value)
    return `r${this.refs.length - 1}`
  }
}

const literal = (s: string): string => JSON.stringify(s)

/** An expression reading the value a condition or rollout reads (the walk's `lookup`). */
const read = (isKey: boolean, name: string, ownOnly: boolean, src: Source): string =>
  isKey
    ? "key"
    : ownOnly
      ? `(attributes === undefined || !${src.ref(Object.prototype.hasOwnProperty)}.call(attributes, ${literal(name)}) ? undefined : attributes[${literal(name)}])`
      : `(attributes === undefined ? undefined : attributes[${literal(name)}])`

const anyOf = (values: ReadonlyArray<string>, test: (value: string) => string): string =>
  values.length === 0 ? "false" : `(${values.map(test).join(" || ")})`

/** An expression true when the string `v` passes the condition's operator (before `negate`). */
const stringTest = (c: CompiledCondition, src: Source): string => {
  const { op, prepared } = c
  if (op === OPERATORS.in || op === OPERATORS.notIn) {
    const set = prepared as JsonSet
    const test = set.fewStrings === null ? `${src.ref(set.primitives)}.has(v)` : anyOf(set.fewStrings, (s) => `v === ${literal(s)}`)
    return op === OPERATORS.in ? test : `!${test}`
  }
  if (Array.isArray(prepared)) {
    const values = prepared as ReadonlyArray<string>
    if (op === OPERATORS.endsWith) return anyOf(values, (s) => `v.endsWith(${literal(s)})`)
    if (op === OPERATORS.startsWith) return anyOf(values, (s) => `v.startsWith(${literal(s)})`)
    if (op === OPERATORS.contains) return anyOf(values, (s) => `v.includes(${literal(s)})`)
  }
  return `${src.ref(testString)}(${src.ref(op)}, v, ${src.ref(prepared)})`
}

/**
 * A segment condition naming one segment that has key lists and no conditions (a big list in a
 * rule), written out as its included list's lookup: what the walk's `listedSegmentMatches` answers
 * for it (the read value is listed when it is a string in `included`; an excluded one, with no
 * conditions to fall back on, is out either way). Null for any other segment condition.
 */
const listedOnly = (c: CompiledCondition, label: string, src: Source): string | null => {
  if ((c.kind !== KIND_IN_SEGMENT && c.kind !== KIND_NOT_IN_SEGMENT) || c.segments.length !== 1) return null
  const segment = c.segments[0]!
  const lists = segment.lists
  if (lists === null || segment.conditions.length > 0) return null
  const listed = lists.included === null ? "false" : `(typeof v === "string" && ${src.ref(lists.included)}.has(v))`
  // The walk: matched = (inSegment ? listed : !listed) !== negate.
  const matchesWhenListed = (c.kind === KIND_IN_SEGMENT) !== c.negate
  return `v = ${read(lists.isKey, lists.attribute, lists.ownOnly, src)}; if (${matchesWhenListed ? "!" : ""}${listed}) break ${label};`
}

/** Statements that leave block `label` when the condition does not match. */
const condition = (c: CompiledCondition, label: string, src: Source, check: ConditionCheck): string => {
  if (c.kind !== KIND_ATTRIBUTE) return listedOnly(c, label, src) ?? `if (!${src.ref(check)}(${src.ref(c)}, key, attributes)) break ${label};`
  const negate = c.negate ? " === true" : " === false"
  const other = `${src.ref(testAttribute)}(${src.ref(c.op)}, v, ${src.ref(c.prepared)})`
  const test = c.stringShortcut ? `(typeof v === "string" ? ${stringTest(c, src)} : ${other})` : other
  // An absent attribute (undefined, or JSON null) never matches, whatever `negate` says.
  return `v = ${read(c.isKey, c.attribute, c.ownOnly, src)}; if (v === undefined || v === null || ${test}${negate}) break ${label};`
}

/** Statements serving the rollout's slice, or leaving block `label` when it serves none. */
const rollout = (r: CompiledRollout, label: string, src: Source): string => {
  const st = r.bucketer.state
  const slices = r.thresholds.map((t, i) => `if (h < ${t}) return ${src.ref(r.results[i])};`).join(" ")
  return (
    `v = ${read(r.isKey, r.bucketBy, r.ownOnly, src)}; ` +
    // The bucket value (Bucketing.bucketValue): a string as is, a finite number in its JSON form.
    `if (typeof v !== "string") { if (typeof v === "number" && Number.isFinite(v)) v = String(v); else break ${label}; } ` +
    `const h = ${src.ref(hashRest)}(${st.h}, ${st.tail}, ${st.tailBytes}, ${st.length}, v) >>> 0; ${slices} break ${label};`
  )
}

/** The chain of `rules`, or null where code generation is forbidden. */
export const make = (rules: ReadonlyArray<CompiledRule>, check: ConditionCheck): RuleChain | null => {
  if (!codegen) return null
  const src = new Source()
  const blocks = rules.map((rule, i) => {
    const label = `rule${i}`
    const conditions = rule.conditions.map((c) => condition(c, label, src, check)).join(" ")
    const serve = rule.result !== null ? `return ${src.ref(rule.result)};` : rule.rollout !== null ? rollout(rule.rollout, label, src) : `break ${label};`
    return `${label}: { ${conditions} ${serve} }`
  })
  const refs = src.refs.map((_, i) => `const r${i} = refs[${i}];`).join(" ")
  const source = `"use strict"; ${refs} return function chain(key, attributes) { let v; ${blocks.join(" ")} return null }`
  try {
    const chain: unknown = new Function("refs", source)(src.refs)
    return typeof chain === "function" ? (chain as RuleChain) : null
  } catch {
    codegen = false // forbidden here: do not try again for every flag
    return null
  }
}

/**
 * Evaluations of a flag after which its rules run as its chain: making one costs some tens of
 * microseconds, what about a thousand evaluations save, so a flag evaluated a few times never pays it.
 */
export const HOT_AFTER = 1024
/**
 * Chains made in a row at most, then one per `WALKS_PER_CHAIN` walks of flags not yet hot: when
 * thousands of flags turn hot together (a bulk evaluation), making their chains never costs much
 * more than the walks around it, so no request pauses for long. Counted here, off the hot path.
 */
const BURST = 8
const WALKS_PER_CHAIN = 128
let credit = BURST * WALKS_PER_CHAIN

/** Counts one evaluation of a flag without a chain; makes its chain once it is hot. Undefined: walk the rules. */
export const warm = (flag: CompiledFlag, check: ConditionCheck): RuleChain | null | undefined => {
  if (credit < BURST * WALKS_PER_CHAIN) credit++
  if (++flag.runs < HOT_AFTER || credit < WALKS_PER_CHAIN) return undefined
  credit -= WALKS_PER_CHAIN
  flag.chain = make(flag.rules, check)
  return flag.chain
}
