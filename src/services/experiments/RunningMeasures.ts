/**
 * The rules measured in a project (of one environment when named): running experiments' and
 * running release plans' guardrails (`domain/experiments/MeasuredRule.ts`). The one read
 * behind which exposures and metric events are kept (IngestRequest.ts), which rules the server
 * records exposures of (the evaluation lane), and which rules a snapshot tells SDKs to send
 * exposures for (Snapshots.ts): all three agree because they ask here.
 */
import * as Effect from "effect/Effect"
import { type MeasuredRule, measuredExperiment } from "../../domain/experiments/MeasuredRule.js"
import { planMeasure } from "../../domain/releaseplans/PlanAnalysis.js"
import { ExperimentRepository } from "../../ports/ExperimentRepository.js"
import { ReleasePlanRepository } from "../../ports/ReleasePlanRepository.js"
import type { StorageError } from "../../ports/StorageError.js"

export type RunningMeasures = (projectId: string, environment?: string) => Effect.Effect<ReadonlyArray<MeasuredRule>, StorageError>

export const makeRunningMeasures = Effect.gen(function* () {
  const experiments = yield* ExperimentRepository
  const plans = yield* ReleasePlanRepository
  const running: RunningMeasures = (projectId, environment) =>
    Effect.map(
      Effect.all([experiments.listRunning(projectId, environment), plans.listIn(projectId, ["running"], environment === undefined ? {} : { environment })], { concurrency: "unbounded" }),
      ([measuring, ramping]) => [...measuring.map(measuredExperiment), ...ramping.map(planMeasure)]
    )
  return running
})
