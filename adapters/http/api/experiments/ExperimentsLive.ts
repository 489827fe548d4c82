/**
 * The experiments handlers: each a call to the `Experiments` use case, which decides what the
 * caller may do (a key bound to an environment reaches that environment's experiments only).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { ExperimentResults } from "../../../../src/services/experiments/ExperimentResults.js"
import * as Stream from "effect/Stream"
import { Experiments } from "../../../../src/services/experiments/Experiments.js"
import { UnitExport } from "../../../../src/services/experiments/UnitExport.js"
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
    // Streamed as the client reads: a failure after the first bytes ends the response early.
    .handle("unitsCsv", ({ path }) =>
      Effect.flatMap(UnitExport, (exporter) =>
        Effect.map(mapped(exporter.csv(path.projectId, path.experimentKey)), (csv) =>
          HttpServerResponse.stream(Stream.encodeText(csv), {
            contentType: "text/csv; charset=utf-8",
            headers: { "content-disposition": `attachment; filename="${path.experimentKey}-units.csv"` }
          }))))
)
