/**
 * The experiments handlers: each a call to the `Experiments` use case, which decides what the
 * caller may do (a key bound to an environment reaches that environment's experiments only).
 */
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { ExperimentResults } from "../../../../src/services/experiments/ExperimentResults.js"
import { Experiments } from "../../../../src/services/experiments/Experiments.js"
import { FlagportApi } from "../Api.js"
import { mapped } from "../Calling.js"

export const ExperimentsLive = HttpApiBuilder.group(FlagportApi, "experiments", (handlers) =>
  handlers
    .handle("list", ({ path }) => Effect.flatMap(Experiments, (experiments) => Effect.map(mapped(experiments.list(path.projectId)), (data) => ({ data }))))
    .handle("create", ({ path, payload }) => Effect.flatMap(Experiments, (experiments) => mapped(experiments.create(path.projectId, payload))))
    .handle("get", ({ path }) => Effect.flatMap(Experiments, (experiments) => mapped(experiments.get(path.projectId, path.experimentKey))))
    .handle("patch", ({ path, payload }) =>
      Effect.flatMap(Experiments, (experiments) => mapped(experiments.patch(path.projectId, path.experimentKey, payload))))
    .handle("remove", ({ path }) => Effect.flatMap(Experiments, (experiments) => mapped(experiments.remove(path.projectId, path.experimentKey))))
    .handle("start", ({ path }) => Effect.flatMap(Experiments, (experiments) => mapped(experiments.start(path.projectId, path.experimentKey))))
    .handle("stop", ({ path, payload }) =>
      Effect.flatMap(Experiments, (experiments) => mapped(experiments.stop(path.projectId, path.experimentKey, payload ?? {}))))
    .handle("results", ({ path }) => Effect.flatMap(ExperimentResults, (r) => mapped(r.results(path.projectId, path.experimentKey))))
)
