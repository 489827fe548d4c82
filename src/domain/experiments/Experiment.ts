import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Key, Timestamp } from "../definitions/Ids.js"
import { Text } from "../definitions/Text.js"

/**
 * An experiment (docs/guide/experiments.md): which rule of which flag assigns the variations in
 * one environment, which variation is the control, what is measured and how it is analysed.
 *
 * Life cycle: `draft` (everything may change) → `running` (started: exposures and events of its
 * flag and rule are collected from `startedAt`) → `stopped` (the data and the results stay).
 * Once started, its flag, environment, rule and metrics are fixed.
 */
export const ExperimentStatus = Schema.Literal("draft", "running", "stopped")
export type ExperimentStatus = typeof ExperimentStatus.Type

/** How many metrics an experiment may measure. */
export const MAX_METRICS = 20
/** The longest window after a unit's first exposure a metric may count events in: a year. */
export const MAX_WINDOW_HOURS = 24 * 366
/** The longest period before the first exposure that CUPED's covariate may cover. */
export const MAX_PRE_WINDOW_DAYS = 30

const Name = Text.pipe(Schema.minLength(1, { message: () => "must not be empty" }), Schema.maxLength(200, { message: () => "must be at most 200 characters" }))
const LongText = Text.pipe(Schema.maxLength(2000, { message: () => "must be at most 2,000 characters" }))

/** The name of a metric event as SDKs send it (`client.track("purchase", ...)`). */
export const EventName = Text.pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(128, { message: () => "must be at most 128 characters" })
)

const WindowHours = Schema.Number.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n >= 1 && n <= MAX_WINDOW_HOURS) || `must be a whole number of hours from 1 to ${MAX_WINDOW_HOURS}`)
)

/**
 * What is measured for each unit after its first exposure: `conversion` is 1 when the unit sent
 * `event` at least once (within `windowHours` of the exposure when set), else 0; `mean` is the sum
 * of the event's values (0 when none). `goal` says which direction is better.
 */
export const Metric = Schema.Struct({
  key: Key,
  event: EventName,
  kind: Schema.Literal("conversion", "mean"),
  goal: Schema.Literal("increase", "decrease"),
  role: Schema.Literal("primary", "secondary", "guardrail"),
  windowHours: Schema.optional(WindowHours)
}).annotations(documentName("Metric"))
export type Metric = typeof Metric.Type

export const AnalysisMethod = Schema.Literal("sequential", "frequentist", "bayesian")
export type AnalysisMethod = typeof AnalysisMethod.Type

const Alpha = Schema.Number.pipe(Schema.filter((n) => (n > 0 && n <= 0.5) || "must be greater than 0 and at most 0.5"))
const PreWindowDays = Schema.Number.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n >= 0 && n <= MAX_PRE_WINDOW_DAYS) || `must be a whole number of days from 0 to ${MAX_PRE_WINDOW_DAYS}`)
)
const PlannedUnits = Schema.Number.pipe(
  Schema.filter((n) => (Number.isInteger(n) && n >= 100 && n <= 1_000_000_000) || "must be a whole number from 100 to 1,000,000,000")
)

/** How the results are computed; every field has its default (`ANALYSIS_DEFAULTS`). */
export const Analysis = Schema.Struct({
  method: AnalysisMethod,
  alpha: Schema.Number,
  cuped: Schema.Boolean,
  preWindowDays: Schema.Number,
  plannedUnits: Schema.Number
}).annotations(documentName("Analysis"))
export type Analysis = typeof Analysis.Type

export const ANALYSIS_DEFAULTS: Analysis = { method: "sequential", alpha: 0.05, cuped: true, preWindowDays: 7, plannedUnits: 10_000 }

/** The analysis as sent: any field left out keeps its default (on a create) or its value (on a patch). */
export const AnalysisInput = Schema.Struct({
  method: Schema.optional(AnalysisMethod),
  alpha: Schema.optional(Alpha),
  cuped: Schema.optional(Schema.Boolean),
  preWindowDays: Schema.optional(PreWindowDays),
  plannedUnits: Schema.optional(PlannedUnits)
}).annotations(documentName("AnalysisInput"))
export type AnalysisInput = typeof AnalysisInput.Type

/** What the team decided when it stopped the experiment: the variation it ships, and why. */
export const Decision = Schema.Struct({
  variationKey: Key,
  note: LongText
}).annotations(documentName("ExperimentDecision"))
export type Decision = typeof Decision.Type

const Metrics = Schema.Array(Metric).pipe(
  Schema.minItems(1, { message: () => "must name at least one metric" }),
  Schema.maxItems(MAX_METRICS, { message: () => `must have at most ${MAX_METRICS} metrics` })
)

/** An experiment as the API shows it. `startedAt`, `stoppedAt`: null until it starts, stops. */
export const Experiment = Schema.Struct({
  id: Schema.String,
  key: Key,
  name: Schema.String,
  hypothesis: Schema.optional(Schema.String),
  flagKey: Key,
  environment: Key,
  ruleId: Schema.String,
  controlVariationKey: Schema.String,
  metrics: Schema.Array(Metric),
  analysis: Analysis,
  status: ExperimentStatus,
  startedAt: Schema.NullOr(Timestamp),
  stoppedAt: Schema.NullOr(Timestamp),
  decision: Schema.optional(Decision),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotations(documentName("Experiment"))
export type Experiment = typeof Experiment.Type

/** Body of `POST /v1/projects/{projectId}/experiments`. */
export const CreateExperimentInput = Schema.Struct({
  key: Key,
  name: Schema.optional(Name),
  hypothesis: Schema.optional(LongText),
  flagKey: Key,
  environment: Key,
  ruleId: Text,
  controlVariationKey: Key,
  metrics: Metrics,
  analysis: Schema.optional(AnalysisInput)
}).annotations(documentName("CreateExperimentInput"))
export type CreateExperimentInput = typeof CreateExperimentInput.Type

/**
 * Body of `PATCH .../experiments/{key}`: send only what changes (`hypothesis: null` removes it).
 * Once started, `flagKey`, `environment`, `ruleId` and `metrics` may only be sent unchanged.
 */
export const PatchExperimentInput = Schema.Struct({
  name: Schema.optional(Name),
  hypothesis: Schema.optional(Schema.NullOr(LongText)),
  flagKey: Schema.optional(Key),
  environment: Schema.optional(Key),
  ruleId: Schema.optional(Text),
  controlVariationKey: Schema.optional(Key),
  metrics: Schema.optional(Metrics),
  analysis: Schema.optional(AnalysisInput)
}).annotations(documentName("PatchExperimentInput"))
export type PatchExperimentInput = typeof PatchExperimentInput.Type

/** Body of `POST .../experiments/{key}/stop` (it may be empty). */
export const StopExperimentInput = Schema.Struct({
  decision: Schema.optional(Decision)
}).annotations(documentName("StopExperimentInput"))
export type StopExperimentInput = typeof StopExperimentInput.Type
