/**
 * Everything the client takes from Flagport's pure core, in one place: the evaluator and its
 * types. The client must stay runnable on any JavaScript runtime, so nothing here may pull in
 * Effect, @effect/platform or node: modules (test/client/Bundle.test.ts checks the bundle).
 */
export {
  compile,
  type CompiledCondition,
  type CompiledFlag,
  type CompiledSnapshot,
  evaluate,
  evaluateAll,
  evaluateCompiled,
  type LocalContext
} from "../../src/domain/Evaluate.js"
export { isAttributeOperator } from "../../src/domain/Operators.js"
export type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/ConfigSnapshot.js"
export type { EvaluationResult, Reason } from "../../src/domain/EvaluationResult.js"
