/**
 * `flagport experiments list|show|start|stop`: a project's experiments from a terminal. Starting
 * and stopping go through the same use case as `POST .../experiments/{key}/start|stop`, so they
 * are checked the same way (a draft whose rule lost its rollout does not start), audited (actor
 * `cli`, Main.ts) and announced to webhooks (`experiment.started`, `experiment.stopped`).
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Experiment, StopExperimentInput } from "../../../src/domain/experiments/Experiment.js"
import { ExperimentResults } from "../../../src/services/experiments/ExperimentResults.js"
import { Experiments } from "../../../src/services/experiments/Experiments.js"
import { decode } from "../Decode.js"
import * as Shared from "../Options.js"
import { printJson, printLines, printTable } from "../Output.js"
import { checkLines, RESULT_HEADER, resultRows } from "../ResultsText.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"

const project = Shared.project

const experimentKey = Args.text({ name: "EXPERIMENT" }).pipe(Args.withDescription("The experiment key."))

const ship = Options.text("ship").pipe(
  Options.withPseudoName("VARIATION"),
  Options.withDescription("The decision: the variation the team ships (a variation of the experiment's flag)."),
  Options.optional
)

const note = Options.text("note").pipe(
  Options.withPseudoName("TEXT"),
  Options.withDescription("Why, kept with the decision (needs --ship)."),
  Options.optional
)

/** The lines `show`, `start` and `stop` print: one KEY=value each, so scripts can read them. */
const lines = (experiment: Experiment): Array<string> => [
  `EXPERIMENT=${experiment.key}`,
  `NAME=${experiment.name}`,
  `STATUS=${experiment.status}`,
  `FLAG=${experiment.flagKey}`,
  `ENVIRONMENT=${experiment.environment}`,
  `RULE=${experiment.ruleId}`,
  `CONTROL=${experiment.controlVariationKey}`,
  `METRICS=${experiment.metrics.map((metric) => `${metric.key}(${metric.kind},${metric.role})`).join(" ")}`,
  `ANALYSIS=${experiment.analysis.method} alpha=${experiment.analysis.alpha}`,
  `STARTED=${experiment.startedAt ?? "-"}`,
  `STOPPED=${experiment.stoppedAt ?? "-"}`,
  ...(experiment.decision === undefined ? [] : [`DECISION=${experiment.decision.variationKey}`])
]

const list = Command.make("list", { project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const experiments = yield* (yield* Experiments).list(options.project)
    if (options.json) return yield* printJson({ data: experiments })
    yield* printTable(
      ["KEY", "STATUS", "FLAG", "ENVIRONMENT", "RULE", "STARTED", "NAME"],
      experiments.map((experiment) => [
        experiment.key,
        experiment.status,
        experiment.flagKey,
        experiment.environment,
        experiment.ruleId,
        experiment.startedAt ?? "-",
        experiment.name
      ])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List the experiments of a project with their status.")
)

const show = Command.make("show", { experiment: experimentKey, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const experiment = yield* (yield* Experiments).get(options.project, options.experiment)
    if (options.json) return yield* printJson(experiment)
    yield* printLines(lines(experiment))
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Show one experiment: its flag, rule, control, metrics, analysis and status.")
)

const start = Command.make("start", { experiment: experimentKey, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const experiment = yield* (yield* Experiments).start(options.project, options.experiment)
    if (options.json) return yield* printJson(experiment)
    yield* printLines(lines(experiment))
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Start a draft experiment: its exposures and metric events are collected from now.")
)

const stop = Command.make("stop", { experiment: experimentKey, project, ship, note, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    if (Option.isNone(options.ship) && Option.isSome(options.note)) {
      return yield* new UsageError({ message: "--note is the reason for a decision: give --ship VARIATION with it" })
    }
    const input = yield* decode(StopExperimentInput, "stop")(
      Option.match(options.ship, {
        onNone: () => ({}),
        onSome: (variationKey) => ({ decision: { variationKey, note: Option.getOrElse(options.note, () => "") } })
      })
    )
    const experiment = yield* (yield* Experiments).stop(options.project, options.experiment, input)
    if (options.json) return yield* printJson(experiment)
    yield* printLines(lines(experiment))
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Stop a running experiment, with the decision when given; its data stays.")
)

const results = Command.make("results", { experiment: experimentKey, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const answer = yield* (yield* ExperimentResults).results(options.project, options.experiment)
    if (options.json) return yield* printJson(answer)
    yield* printLines([...checkLines(answer), ""])
    yield* printTable(RESULT_HEADER, resultRows(answer))
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Show an experiment's results: the checks, then per metric and variation the lift, its interval and the verdict.")
)

export const experiments = Command.make("experiments", {}, () =>
  new UsageError({ message: "missing subcommand: flagport experiments list|show|results|start|stop (see --help)" })
).pipe(
  Command.withDescription("List, show, start and stop experiments, and read their results."),
  Command.withSubcommands([list, show, results, start, stop])
)
