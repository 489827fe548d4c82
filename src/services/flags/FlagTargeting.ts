/**
 * The targeting half of the `Flags` use case (Flags.ts): a flag's configuration in one
 * environment (enabled, default and off variations, prerequisites, rules), read, checked and
 * replaced. The scheduler, change requests, flags as code and the flagd import write targeting
 * through it, so every targeting write follows these rules. The flag itself is the other half
 * (FlagDefinitions.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { flagSeen } from "../../domain/auth/EnvironmentView.js"
import { mayNameSegments } from "../../domain/definitions/Condition.js"
import type { ChangeRequestRequired, Forbidden, InvalidRequest, PreconditionFailed, ResourceNotFound } from "../../domain/Errors.js"
import type { Flag } from "../../domain/definitions/Flag.js"
import type { EnvironmentConfig, Rule, TargetingInput } from "../../domain/definitions/Targeting.js"
import type { ConfigWithUsage, FlagWithUsage } from "../../domain/insights/Usage.js"
import * as Validation from "../../domain/definitions/Validation.js"
import { projectGraph, validatePrerequisites } from "../../domain/definitions/ValidatePrerequisites.js"
import { environmentNotFound } from "../../domain/NotFound.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { authorize } from "../shared/Authorize.js"
import * as Protection from "../shared/Protection.js"
import * as PlanPauses from "../releaseplans/PlanPauses.js"
import * as Writes from "../shared/Writes.js"
import { invalid, type FlagReads } from "./FlagReads.js"
import { checkConfigPrecondition, checkPreconditions, compareAndSet, type WriteOptions } from "./FlagVersions.js"

export interface FlagTargetingShape {
  /**
   * Replaces one environment's configuration whole, assigns ids to rules sent without one (sent
   * ids are kept), grows the version by one and records `targeting.updated`. In a protected
   * environment a person's write is refused (409 `change_request_required`, Protection.ts) unless
   * it applies an approved change request (`options.changeRequestId`, named by the audit entry). Prerequisites
   * (default none) must name flags and variations of the project without making a cycle or
   * nesting deeper than the limit (ValidatePrerequisites.ts). All or nothing:
   * any problem (400) or unknown environment / flag (404) leaves the flag untouched.
   */
  readonly replaceTargeting: (
    projectId: string,
    flagKey: string,
    input: TargetingInput,
    options?: WriteOptions
  ) => Effect.Effect<FlagWithUsage, InvalidRequest | ResourceNotFound | PreconditionFailed | ChangeRequestRequired | Forbidden | StorageError>
  /**
   * The flag's configuration in one environment as the API shows it (with its `version` and
   * `lastEvaluatedAt`); 404 for an unknown project, flag or environment.
   */
  readonly targeting: (
    projectId: string,
    flagKey: string,
    environment: string
  ) => Effect.Effect<ConfigWithUsage, ResourceNotFound | Forbidden | StorageError>
  /**
   * Checks `input` exactly as `replaceTargeting` would, writing nothing: the same 404 for an
   * unknown project, flag or environment and the same 400 with every problem (scheduled changes
   * validate with it when they are made). Answers the flag as it is now.
   */
  readonly validateTargeting: (
    projectId: string,
    flagKey: string,
    input: TargetingInput
  ) => Effect.Effect<Flag, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
}

export const make = (reads: FlagReads) =>
  Effect.gen(function* () {
    const environments = yield* EnvironmentRepository
    const flags = yield* FlagRepository
    const segments = yield* SegmentRepository
    const ids = yield* IdGenerator
    const writes = yield* Writes.writer
    const protection = yield* Protection.guards
    const pausePlans = yield* PlanPauses.pauser
    const { answer, load, stored, viewOne } = reads

    /**
     * The rules of a targeting write, in one place: the environment exists (404), every problem of
     * the input (400), prerequisites included. Reads the segments only when a rule names some, the
     * project's flags only when prerequisites are sent.
     */
    const checkTargeting = (projectId: string, flag: Flag, input: TargetingInput) =>
      Effect.gen(function* () {
        const environment = yield* environments.get(projectId, input.environment)
        if (Option.isNone(environment)) return yield* environmentNotFound(projectId, input.environment, (yield* environments.list(projectId)).map((e) => e.key))
        // Validation reports malformed input with paths; until it has run, read the input defensively.
        const sentRules: ReadonlyArray<TargetingInput["rules"][number] | undefined> = Array.isArray(input.rules) ? input.rules : []
        const namesSegments = sentRules.some((rule) => mayNameSegments(rule?.conditions))
        const segmentKeys = namesSegments
          ? new Set((yield* segments.list(projectId)).map((s) => s.key))
          : new Set<string>()
        // The project's flags are only needed (one more query) when prerequisites are sent.
        const sentPrerequisites: unknown = input.prerequisites
        const needsGraph = sentPrerequisites !== undefined && !(Array.isArray(sentPrerequisites) && sentPrerequisites.length === 0)
        const graph = needsGraph ? projectGraph(yield* flags.list(projectId), input.environment) : undefined
        const problems = [
          ...Validation.validateTargeting(flag, input, segmentKeys),
          ...(graph === undefined ? [] : validatePrerequisites(flag.key, sentPrerequisites, graph))
        ]
        if (problems.length > 0) return yield* invalid("Invalid targeting", problems)
      })

    const targeting = Effect.fn("Flags.targeting")(function* (projectId: string, flagKey: string, environment: string) {
      yield* authorize("Flags.targeting", projectId, [environment])
      const shown = yield* viewOne(projectId, yield* stored(projectId, flagKey))
      const config = shown.configs.find((c) => c.environmentKey === environment)
      // Every flag has a configuration in every environment of its project: none means no such environment.
      return config ?? (yield* environmentNotFound(projectId, environment, shown.configs.map((c) => c.environmentKey)))
    })

    const validateTargeting = Effect.fn("Flags.validateTargeting")(function* (projectId: string, flagKey: string, input: TargetingInput) {
      yield* authorize("Flags.validateTargeting", projectId, [input.environment])
      const flag = yield* stored(projectId, flagKey)
      yield* checkTargeting(projectId, flag, input)
      return flag
    })

    const replaceTargeting = Effect.fn("Flags.replaceTargeting")(function* (
      projectId: string,
      flagKey: string,
      input: TargetingInput,
      options?: WriteOptions
    ) {
      const { seen } = yield* authorize("Flags.replaceTargeting", projectId, [input.environment])
      // Whether the writer may write here at all (a person, a protected environment: Protection.ts)
      // comes before what they wrote, and before the write's lock; an unknown flag or a stale
      // version is still the 404 or 412 it was.
      const current = Effect.tap(stored(projectId, flagKey), (flag) =>
        Effect.zipRight(checkPreconditions(flag, options), checkConfigPrecondition(flag, input.environment, options)))
      yield* protection.direct(projectId, input.environment, { changeRequestId: options?.changeRequestId, first: current })
      // Validation reports malformed input with paths; until it has run, read the input defensively.
      const sentRules: ReadonlyArray<TargetingInput["rules"][number] | undefined> = Array.isArray(input.rules) ? input.rules : []
      // Ids for rules sent without one are drawn before the transaction so it stays short.
      const freshIds = yield* Effect.forEach(
        sentRules.filter((rule) => rule?.id === undefined),
        () => ids.next
      )
      const written = yield* writes.serving(projectId, ({ millis, now, revision }) =>
        Effect.gen(function* () {
          const flag = yield* load(projectId, flagKey, options)
          yield* checkConfigPrecondition(flag, input.environment, options)
          yield* checkTargeting(projectId, flag, input)
          let next = 0
          const rules: Array<Rule> = input.rules.map((rule) => ({ ...rule, id: rule.id ?? `rule-${freshIds[next++]}` }))
          const config: EnvironmentConfig = {
            environmentKey: input.environment,
            enabled: input.enabled,
            defaultVariationKey: input.defaultVariationKey,
            offVariationKey: input.offVariationKey,
            prerequisites: input.prerequisites ?? [],
            rules,
            version: flag.version + 1
          }
          const exists = flag.configs.some((c) => c.environmentKey === input.environment)
          const updated: Flag = {
            ...flag,
            configs: exists
              ? flag.configs.map((c) => (c.environmentKey === input.environment ? config : c))
              : [...flag.configs, config],
            version: flag.version + 1,
            updatedAt: now
          }
          yield* compareAndSet(flags.updateConfig(projectId, updated, input.environment, flag.version))
          // A person's change pauses the release plans ramping this flag here (PlanPauses.ts).
          const paused = yield* pausePlans(projectId, flagKey, input.environment, millis)
          return yield* answer(projectId, {
            value: updated,
            events: [{ type: "targeting.updated", flag: updated, environment: input.environment }, ...paused.events],
            audit: [
              {
                action: "targeting.updated",
                resource: { type: "flag", key: flagKey },
                environment: input.environment,
                before: flag,
                after: updated,
                ...(options?.changeRequestId === undefined ? {} : { changeRequestId: options.changeRequestId })
              },
              ...paused.audit
            ],
            change: configChanged(projectId, revision, "targeting", { environments: [input.environment], flagKeys: [flagKey] })
          })
        })
      )
      return flagSeen(seen, written)
    })

    return { replaceTargeting, targeting, validateTargeting } satisfies FlagTargetingShape
  })
