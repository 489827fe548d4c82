/**
 * `flagport release-plans list|show|create|update|start|pause|resume|cancel|delete`: a flag's
 * release plans from a terminal (docs/guide/release-plans.md). Every command is one call of the
 * ReleasePlans use case, as the `.../flags/{key}/release-plans` routes are, so a plan is judged by
 * the same rules (PlanRules.ts: exit 1 with every problem and its path), its transitions by the
 * same table (Transitions.ts: exit 1 naming the status), audited with actor `cli` (Main.ts) and
 * announced to webhooks (`release_plan.started`, `.paused`, `.cancelled`) like any other caller's.
 *
 * Steps are given as `--step WEIGHT:MINUTES` in the API's units (WEIGHT in thousandths of a percent,
 * 5000 is 5%), guardrails as `--guardrail JSON`, each a metric as the API takes it.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  CreateReleasePlanInput,
  OnHarm,
  type ReleasePlan,
  ResumeReleasePlanInput,
  UpdateReleasePlanInput
} from "../../../src/domain/releaseplans/ReleasePlan.js"
import { ReleasePlans } from "../../../src/services/releaseplans/ReleasePlans.js"
import { decode } from "../Decode.js"
import * as Shared from "../Options.js"
import { printJson, printLines, printTable } from "../Output.js"
import { whole } from "../Progress.js"
import * as Storage from "../Storage.js"
import { UsageError } from "../UsageError.js"

const project = Shared.project

const flagKey = Args.text({ name: "FLAG" }).pipe(Args.withDescription("The flag key."))
const planId = Args.text({ name: "ID" }).pipe(Args.withDescription("The release plan's id, as `release-plans list FLAG` shows it."))

const environment = Options.text("environment").pipe(Options.withPseudoName("ENV"), Options.withDescription("The environment whose targeting the plan ramps."))
const rule = Options.text("rule").pipe(Options.withPseudoName("RULE"), Options.withDescription("The id of the rule whose rollout the plan sets."))
const variation = Options.text("variation").pipe(Options.withPseudoName("VARIATION"), Options.withDescription("The variation the plan ramps up."))
const step = Options.text("step").pipe(
  Options.withPseudoName("WEIGHT:MINUTES"),
  Options.withDescription("A step, in order: the weight (thousandths of a percent: 5000 is 5%), then how many minutes it holds. Repeat for each step."),
  Options.repeated
)
const guardrail = Options.text("guardrail").pipe(
  Options.withPseudoName("JSON"),
  Options.withDescription("A guardrail metric as the API takes it, e.g. '{\"key\":\"errors\",\"event\":\"error\",\"kind\":\"conversion\",\"goal\":\"decrease\",\"role\":\"guardrail\"}'. Repeat for each."),
  Options.repeated
)
const onHarm = Options.choice("on-harm", OnHarm.literals).pipe(
  Options.withDescription("On harm: pause at the weight (default) or roll back to weight 0."),
  Options.optional
)
const alpha = Options.float("alpha").pipe(
  Options.withPseudoName("ALPHA"),
  Options.withDescription("The guardrails' alpha: the chance of stopping a harmless plan (default 0.05)."),
  Options.optional
)
const noGuardrails = Options.boolean("no-guardrails").pipe(Options.withDescription("update: remove every guardrail."))
const confirm = Options.boolean("confirm").pipe(
  Options.withDescription("resume: continue a plan paused by a direct change to its flag's targeting, from the targeting as it is now.")
)

/** `--step 5000:60` as the API's step; the numbers themselves are judged by the plan's rules. */
const parseSteps = (texts: ReadonlyArray<string>) =>
  Effect.forEach(texts, (text) => {
    const match = /^\s*([^:\s]+)\s*:\s*([^:\s]+)\s*$/.exec(text)
    const weight = match === null ? Number.NaN : Number(match[1])
    const holdMinutes = match === null ? Number.NaN : Number(match[2])
    return Number.isNaN(weight) || Number.isNaN(holdMinutes)
      ? Effect.fail(new UsageError({ message: `--step takes WEIGHT:MINUTES (e.g. --step 5000:60 for 5% held an hour), not '${text}'` }))
      : Effect.succeed({ weight, holdMinutes })
  })

/** `--guardrail JSON` as values; their shape is the schema's to judge. */
const parseGuardrails = (texts: ReadonlyArray<string>) =>
  Effect.forEach(texts, (text) =>
    Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new UsageError({ message: `--guardrail takes a metric as JSON, e.g. '{"key":"errors","event":"error","kind":"conversion","goal":"decrease","role":"guardrail"}', not '${text}'` })
    }))

const percent = (weight: number) => `${weight / 1000}%`
const orDash = (value: string | number | null) => (value === null ? "-" : String(value))

/** The step a plan is at, as `2/4`, or `-` before its first step (and after a rollback). */
const stepText = (plan: ReleasePlan) => (plan.currentStep === null ? "-" : `${plan.currentStep + 1}/${plan.steps.length}`)
const weightText = (plan: ReleasePlan) => (plan.currentStep === null ? "-" : String(plan.steps[plan.currentStep]?.weight ?? "-"))

/** The lines `show` and every write print: one KEY=value each, so scripts can read them. */
const lines = (plan: ReleasePlan): Array<string> => [
  `PLAN=${plan.id}`,
  `FLAG=${plan.flagKey}`,
  `ENVIRONMENT=${plan.environment}`,
  `RULE=${plan.ruleId}`,
  `VARIATION=${plan.variationKey}`,
  `STATUS=${plan.status}`,
  `STEP=${stepText(plan)}`,
  `WEIGHT=${weightText(plan)}`,
  `STEPS=${plan.steps.map((s) => `${s.weight}:${s.holdMinutes}`).join(" ")}`,
  `GUARDRAILS=${plan.guardrails.length === 0 ? "-" : plan.guardrails.map((m) => `${m.key}(${m.kind},${m.goal})`).join(" ")}`,
  `ON_HARM=${plan.onHarm}`,
  `ALPHA=${plan.alpha}`,
  `NEXT_STEP_AT=${orDash(plan.nextStepAt)}`,
  `PAUSED_BY=${orDash(plan.pausedBy)}`,
  ...(plan.failure === null ? [] : [`FAILURE=${plan.failure}`]),
  ...(plan.harm === null ? [] : [`HARM=${plan.harm.action} at weight ${plan.harm.weight} (${percent(plan.harm.weight)}) at ${plan.harm.at}`]),
  `STARTED=${orDash(plan.startedAt)}`,
  `COMPLETED=${orDash(plan.completedAt)}`,
  `VERSION=${plan.version}`
]

/** A write to one plan, printed whole: a signal waits for it (Progress.ts) and then says what it did. */
const written = <E, R>(writing: Effect.Effect<ReleasePlan, E, R>, json: boolean, done: string) =>
  whole(
    Effect.tap(writing, (plan) => (json ? printJson(plan) : printLines(lines(plan)))),
    (plan) => `release plan ${plan.id} was ${done} (now ${plan.status})`
  )

const list = Command.make("list", { flag: flagKey, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const plans = yield* (yield* ReleasePlans).list(options.project, options.flag)
    if (options.json) return yield* printJson({ data: plans })
    yield* printTable(
      ["ID", "STATUS", "ENVIRONMENT", "RULE", "VARIATION", "STEP", "WEIGHT", "NEXT_STEP_AT"],
      plans.map((plan) => [plan.id, plan.status, plan.environment, plan.ruleId, plan.variationKey, stepText(plan), weightText(plan), orDash(plan.nextStepAt)])
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("List a flag's release plans with their status and current step.")
)

const show = Command.make("show", { flag: flagKey, id: planId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const plan = yield* (yield* ReleasePlans).get(options.project, options.flag, options.id)
    if (options.json) return yield* printJson(plan)
    yield* printLines(lines(plan))
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Show one release plan: its rule, variation, steps, guardrails, status and current step.")
)

const create = Command.make(
  "create",
  { flag: flagKey, environment, rule, variation, step, guardrail, onHarm, alpha, project, json: Shared.json },
  (options) =>
    Effect.gen(function* () {
      const input = yield* decode(CreateReleasePlanInput, "release plan")({
        environment: options.environment,
        ruleId: options.rule,
        variationKey: options.variation,
        steps: yield* parseSteps(options.step),
        ...(options.guardrail.length === 0 ? {} : { guardrails: yield* parseGuardrails(options.guardrail) }),
        ...Option.match(options.onHarm, { onNone: () => ({}), onSome: (value) => ({ onHarm: value }) }),
        ...Option.match(options.alpha, { onNone: () => ({}), onSome: (value) => ({ alpha: value }) })
      })
      yield* written((yield* ReleasePlans).create(options.project, options.flag, input), options.json, "created")
    })
).pipe(
  Storage.forCommand,
  Command.withDescription("Make a draft release plan for a flag's rule in one environment.")
)

const optionalText = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.withDescription(description), Options.optional)

const update = Command.make(
  "update",
  {
    flag: flagKey,
    id: planId,
    rule: optionalText("rule", "RULE", "The id of the rule whose rollout the plan sets."),
    variation: optionalText("variation", "VARIATION", "The variation the plan ramps up."),
    step,
    guardrail,
    noGuardrails,
    onHarm,
    alpha,
    project,
    json: Shared.json
  },
  (options) =>
    Effect.gen(function* () {
      if (options.noGuardrails && options.guardrail.length > 0) {
        return yield* new UsageError({ message: "--no-guardrails removes every guardrail: give it without --guardrail" })
      }
      const patch = {
        ...Option.match(options.rule, { onNone: () => ({}), onSome: (value) => ({ ruleId: value }) }),
        ...Option.match(options.variation, { onNone: () => ({}), onSome: (value) => ({ variationKey: value }) }),
        ...(options.step.length === 0 ? {} : { steps: yield* parseSteps(options.step) }),
        ...(options.noGuardrails ? { guardrails: [] } : options.guardrail.length === 0 ? {} : { guardrails: yield* parseGuardrails(options.guardrail) }),
        ...Option.match(options.onHarm, { onNone: () => ({}), onSome: (value) => ({ onHarm: value }) }),
        ...Option.match(options.alpha, { onNone: () => ({}), onSome: (value) => ({ alpha: value }) })
      }
      if (Object.keys(patch).length === 0) {
        return yield* new UsageError({ message: "nothing to change: give --rule, --variation, --step, --guardrail, --no-guardrails, --on-harm or --alpha" })
      }
      const input = yield* decode(UpdateReleasePlanInput, "release plan")(patch)
      yield* written((yield* ReleasePlans).update(options.project, options.flag, options.id, input), options.json, "updated")
    })
).pipe(
  Storage.forCommand,
  Command.withDescription("Change a draft release plan: only what is given changes; --step and --guardrail replace the whole list.")
)

const start = Command.make("start", { flag: flagKey, id: planId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    yield* written((yield* ReleasePlans).start(options.project, options.flag, options.id), options.json, "started")
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Start a draft release plan: its first step is applied at once by the server's scheduler.")
)

const pause = Command.make("pause", { flag: flagKey, id: planId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    yield* written((yield* ReleasePlans).pause(options.project, options.flag, options.id), options.json, "paused")
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Pause a running release plan at its current weight.")
)

const resume = Command.make("resume", { flag: flagKey, id: planId, confirm, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    const input = yield* decode(ResumeReleasePlanInput, "resume")(options.confirm ? { confirm: true } : {})
    yield* written((yield* ReleasePlans).resume(options.project, options.flag, options.id, input), options.json, "resumed")
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Resume a paused or harmed release plan (--confirm after a direct change to its flag's targeting).")
)

const cancel = Command.make("cancel", { flag: flagKey, id: planId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    yield* written((yield* ReleasePlans).cancel(options.project, options.flag, options.id), options.json, "cancelled")
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Cancel a release plan for good; its rule keeps the weight it has.")
)

const remove = Command.make("delete", { flag: flagKey, id: planId, project, json: Shared.json }, (options) =>
  Effect.gen(function* () {
    yield* whole(
      Effect.tap((yield* ReleasePlans).remove(options.project, options.flag, options.id), () =>
        options.json ? printJson({ id: options.id, deleted: true }) : printLines([`DELETED=${options.id}`])),
      () => `release plan ${options.id} was deleted`
    )
  })
).pipe(
  Storage.forCommand,
  Command.withDescription("Delete a draft, completed or cancelled release plan (cancel a running one first).")
)

export const releasePlans = Command.make("release-plans", {}, () =>
  new UsageError({ message: "missing subcommand: flagport release-plans list|show|create|update|start|pause|resume|cancel|delete (see --help)" })
).pipe(
  Command.withDescription("List, show, create, change, start, pause, resume, cancel and delete release plans."),
  Command.withSubcommands([list, show, create, update, start, pause, resume, cancel, remove])
)
