/**
 * Compile-time only (nothing imports this file): the client's plain wire types (Wire.ts) are the
 * very types the core derives from its schemas, in both directions. `npm run typecheck` fails here
 * when one side changes without the other.
 */
import type * as Schemas from "../../src/domain/evaluation/ConfigSnapshot.js"
import type * as Results from "../../src/domain/evaluation/EvaluationResult.js"
import type * as Wire from "./Wire.js"

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

export const sameConfig: Same<Wire.ConfigSnapshot, Schemas.ConfigSnapshot> = true
export const sameFlag: Same<Wire.SnapshotFlag, Schemas.SnapshotFlag> = true
export const sameSegment: Same<Wire.SnapshotSegment, Schemas.SnapshotSegment> = true
export const sameExperiment: Same<Wire.SnapshotExperiment, Schemas.SnapshotExperiment> = true
export const sameResult: Same<Wire.EvaluationResult, Results.EvaluationResult> = true
export const sameReason: Same<Wire.Reason, Results.Reason> = true
