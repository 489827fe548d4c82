/**
 * The public `Evaluate` namespace: the evaluator (Evaluator.ts) and `compile` with the `matches`
 * engine, re2js, loaded eagerly, as every server path wants it. The client SDK, which loads the
 * engine on demand, uses Evaluator.ts and Compile.ts directly (adapters/client/Core.ts).
 */
import * as Re2 from "../conditions/Re2.js"
import * as Compile from "./Compile.js"
import type { ConfigSnapshot } from "./ConfigSnapshot.js"
import type { KeyListSource } from "./CompileSegments.js"
import type * as Evaluator from "./Evaluator.js"
import type * as Explain from "./Trace.js"

export { evaluate, evaluateAll, evaluateCompiled, evaluateEach, hasFlag, rolloutUnit } from "./Evaluator.js"
export { explain } from "./Explain.js"
// Aliases, not `export type { ... } from` nor `export *`: the declaration bundler turns a re-exported
// type inside `export * as Evaluate` into a value (`typeof CompiledFlag`), which breaks hosts that
// type-check libraries (skipLibCheck: false). test/package/Package.test.ts checks it.
export type CompiledFlag = Evaluator.CompiledFlag
export type CompiledSnapshot = Evaluator.CompiledSnapshot
export type LocalContext = Evaluator.LocalContext
export type Explanation = Explain.Explanation
export type FlagTrace = Explain.FlagTrace

/**
 * Compiles a snapshot once for many evaluations (see Compile.ts), its segments' key lists from
 * `keyLists` (without it, a flag using a segment with lists answers ERROR `SEGMENT_LIST_NOT_LOADED`).
 * Never throws, whatever the input.
 */
export const compile = (snapshot: ConfigSnapshot, keyLists?: KeyListSource): CompiledSnapshot => Compile.compile(snapshot, Re2.engine, keyLists)

/**
 * `compile`, each flag compiled when first evaluated rather than all at once (Compile.ts): the
 * same answers, for a first read of a large snapshot of which a request names a few flags. The
 * snapshot must not change afterwards. Never throws, whatever the input.
 */
export const compileOnDemand = (snapshot: ConfigSnapshot, keyLists?: KeyListSource): CompiledSnapshot =>
  Compile.compileOnDemand(snapshot, Re2.engine, keyLists)
