/**
 * Everything the client takes from Flagport's pure core, in one place: the compiler, the
 * evaluator and their types. The client must stay runnable on any JavaScript runtime, so nothing
 * here may pull in Effect, @effect/platform or node: modules, nor the `matches` engine (re2js),
 * which RegexLoading.ts imports on demand (test/client/Bundle.test.ts checks the bundle).
 */
export {
  type CompiledFlag,
  type CompiledSnapshot,
  evaluate,
  evaluateAll,
  evaluateCompiled,
  type LocalContext,
  unitOf
} from "../../src/domain/evaluation/Evaluator.js"
export { compile } from "../../src/domain/evaluation/Compile.js"
export type { KeyListSource } from "../../src/domain/evaluation/CompileSegments.js"
export { KeySet } from "../../src/domain/evaluation/KeySet.js"
export { decodeKeyList } from "../../src/domain/evaluation/KeyListWire.js"
export type { CompiledCondition, CompiledRollout } from "../../src/domain/evaluation/Compiled.js"
export { servedBySplit, staticFallthrough } from "../../src/domain/evaluation/OpenFeatureReason.js"
export type { RegexEngine } from "../../src/domain/conditions/RegexEngine.js"
export { isOperatorName, OPERATOR_TABLE } from "../../src/domain/conditions/OperatorTable.js"
export { isGroupShaped, plainConditions } from "../../src/domain/conditions/ConditionItems.js"
export { limit } from "../../src/domain/Limits.js"
export { isStorableText } from "../../src/domain/definitions/TextCheck.js"
export { isIngestibleUnit } from "../../src/domain/definitions/IngestUnit.js"
// The public types, plain (Wire.ts): the core's own are derived from Effect schemas.
export type { Condition, ConfigSnapshot, EvaluationResult, Reason, SnapshotFlag } from "./Wire.js"
