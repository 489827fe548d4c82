/**
 * Everything the client takes from Flagport's pure core, in one place: the evaluator and its
 * types. The client must stay runnable on any JavaScript runtime, so nothing here may pull in
 * Effect, @effect/platform or node: modules (test/client/Bundle.test.ts checks the bundle).
 */
export {
  compile,
  type CompiledFlag,
  type CompiledSnapshot,
  evaluate,
  evaluateAll,
  evaluateCompiled,
  type LocalContext
} from "../../src/domain/evaluation/Evaluate.js"
export type { CompiledCondition } from "../../src/domain/evaluation/Compile.js"
export { isOperatorName } from "../../src/domain/conditions/OperatorTable.js"
export type { ConfigSnapshot, SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
export type { EvaluationResult, Reason } from "../../src/domain/evaluation/EvaluationResult.js"
