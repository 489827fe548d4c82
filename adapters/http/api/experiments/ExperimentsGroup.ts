/** The declarations of experiments: which rule of a flag splits units into variations, and what is measured. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import {
  CreateExperimentInput,
  Experiment,
  PatchExperimentInput,
  StopExperimentInput
} from "../../../../src/domain/experiments/Experiment.js"
import { ExperimentResults } from "../../../../src/domain/experiments/Results.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described, experimentKey, projectId } from "../Declaring.js"
import { declareOptionalBody } from "../OpenApiDocument.js"
import { ManagementAuth } from "../Security.js"
import * as Examples from "./ExperimentExamples.js"

const ExperimentDoc = Experiment.annotations({ examples: [Examples.experiment] })

export class ExperimentsGroup extends HttpApiGroup.make("experiments")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/experiments`.addSuccess(dataOf(ExperimentDoc)),
    "List experiments",
    "Every experiment of the project in creation order, with its status: `draft`, `running` or `stopped`. A key bound to an environment sees that environment's only."
  ))
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/experiments`
      .setPayload(strict(CreateExperimentInput).annotations({ examples: [Examples.createExperiment] }))
      .addSuccess(Created(ExperimentDoc))
      .addError(Errors.Conflict),
    "Create an experiment",
    "A draft measuring the units that rule `ruleId` of flag `flagKey` splits by its percentage rollout in `environment` (400 when the rule is not in that environment's targeting, serves one variation, or does not serve `controlVariationKey`). `metrics` (1 to 20, keys unique) say what each unit did after its first exposure; `analysis` defaults to `sequential`, `alpha` 0.05, `cuped` true with `preWindowDays` 7, `plannedUnits` 10,000. 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/experiments/${experimentKey}`.addSuccess(ExperimentDoc),
    "Get an experiment",
    "One experiment."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/experiments/${experimentKey}`
      .setPayload(strict(PatchExperimentInput).annotations({ examples: [Examples.patchExperiment] }))
      .addSuccess(ExperimentDoc)
      .addError(Errors.Conflict),
    "Update an experiment",
    "Changes what is sent (`hypothesis: null` removes it; `analysis` fields left out keep their values). Once started, `flagKey`, `environment`, `ruleId` and `metrics` may only be sent unchanged: 409."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/experiments/${experimentKey}`.addSuccess(HttpApiSchema.NoContent).addError(Errors.Conflict),
    "Delete an experiment",
    "Deletes a draft or a stopped experiment and what it collected. A running one is 409: stop it first."
  ))
  .add(described(
    HttpApiEndpoint.post("start")`/v1/projects/${projectId}/experiments/${experimentKey}/start`.addSuccess(ExperimentDoc).addError(Errors.Conflict),
    "Start an experiment",
    "A draft becomes `running` (`startedAt` now): from then on the exposures and metric events of its flag's rule are collected, and the webhook event `experiment.started` is sent. It changes no targeting, so a protected environment needs no change request. 409 when it is not a draft, when its rule no longer has a rollout serving the control, or when another running experiment measures the same rule."
  ))
  .add(described(
    HttpApiEndpoint.post("stop")`/v1/projects/${projectId}/experiments/${experimentKey}/stop`
      .setPayload(Schema.NullOr(strict(StopExperimentInput.annotations({ examples: [Examples.stopExperiment] }))))
      .addSuccess(ExperimentDoc)
      .addError(Errors.Conflict)
      .annotate(OpenApi.Transform, declareOptionalBody),
    "Stop an experiment",
    "A running experiment becomes `stopped` (`stoppedAt` now), with the team's `decision` when sent (400 for a variation the flag does not have); its data and results stay. The webhook event `experiment.stopped` is sent. 409 when it is not running. The body is optional: none at all is the same as `{}`."
  ))
  .add(described(
    HttpApiEndpoint.get("results")`/v1/projects/${projectId}/experiments/${experimentKey}/results`
      .addSuccess(ExperimentResults.annotations({ examples: [Examples.results] })),
    "Get an experiment's results",
    "Per metric and variation the units, mean and variance; per treatment against the control the absolute difference and the relative lift with their intervals at 1 − alpha, the p-value (frequentist: Welch's t test; sequential: always valid, safe to look at any time) or the chance to beat the control (bayesian), whether CUPED was applied, and a goal-aware verdict (`better`, `worse`, `inconclusive`). The checks come with every answer: the sample-ratio χ² against the rule's weights (p < 0.001: `trustworthy` false), units exposed to several variations (left out), changes to the flag's targeting while it ran, and whether some variation has fewer than 100 units (every verdict `inconclusive`)."
  ))
  .add(described(
    HttpApiEndpoint.get("unitsCsv")`/v1/projects/${projectId}/experiments/${experimentKey}/units.csv`
      .addSuccess(Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/csv" })).annotations({
        description: "CSV (RFC 4180, CRLF line ends): a header, then one line per exposed unit in unit order: `unit`, `first_exposure_at`, `variation`, `variations_seen`, then per metric in the experiment's order `<key>` (a conversion 0 or 1, a mean the sum after the first exposure) and `<key>_covariate` (the same in the pre-window, CUPED's covariate)."
      })),
    "Export an experiment's units as CSV",
    "The experiment's per-unit rows, for a warehouse: what the results are computed from. Streamed as it is read, a page of units at a time, so any number of units is exported in bounded memory. Read permission, as the experiment."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "Experiments: a flag's percentage rollout measured, unit by unit, against metrics.") {}
