import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { isSegmentOperator } from "../../domain/conditions/OperatorTable.js"
import { type ChangeRequestRequired, InvalidRequest, type PreconditionFailed, type Problem, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { variationsChanged } from "../../domain/definitions/ConfigVersion.js"
import { type CreateFlagInput, disabledConfig, type Flag, type PatchFlagInput } from "../../domain/definitions/Flag.js"
import type { EnvironmentConfig, Rule, TargetingInput } from "../../domain/definitions/Targeting.js"
import type { Environment } from "../../domain/definitions/Project.js"
import type { ConfigWithUsage, FlagWithUsage } from "../../domain/insights/Usage.js"
import * as Validation from "../../domain/definitions/Validation.js"
import { projectGraph, validatePrerequisites } from "../../domain/definitions/ValidatePrerequisites.js"
import { environmentNotFound, flagNotFound } from "../../domain/NotFound.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import * as FlagUsage from "./FlagUsage.js"
import { checkConfigPrecondition, checkPreconditions, compareAndSet, type WriteOptions as FlagWriteOptions } from "./FlagVersions.js"
import { guardDirectWrite, guardSharedWrite } from "../shared/Protection.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

type WriteError = InvalidRequest | ResourceNotFound | ResourceConflict | StorageError

/** Preconditions of a write to an existing flag (FlagVersions.ts): `ifMatch`, `flagId`. */
export type WriteOptions = FlagWriteOptions

type VersionedWriteError = WriteError | PreconditionFailed

/**
 * Every flag it answers is the flag as the API shows it (`FlagWithUsage`: each configuration's
 * `lastEvaluatedAt`, and `stale`; FlagUsage.ts), whoever calls: HTTP, the CLI or an Effect host.
 */
export interface FlagsShape {
  /**
   * Creates a flag with a disabled configuration in every environment of the project
   * (default = first variation, off = last), version 1, and records `flag.created`.
   * 400 for invalid input, 404 for an unknown project, 409 for a duplicate key.
   */
  readonly create: (projectId: string, input: CreateFlagInput) => Effect.Effect<FlagWithUsage, WriteError>
  /** The project's flags in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<FlagWithUsage>, ResourceNotFound | StorageError>
  /** One flag; 404 for an unknown project or flag. */
  readonly get: (projectId: string, flagKey: string) => Effect.Effect<FlagWithUsage, ResourceNotFound | StorageError>
  /**
   * Changes name, description and/or variations (targeting untouched), grows the version by one
   * and records `flag.updated`. Announces a change to every environment when the variations
   * changed, to none when only name and description did (neither is served). New variations must match the flag's type with unique keys
   * (400); removing a variation that a configuration or rule still names is a 409. A person's
   * patch that changes an existing variation's value or removes one is refused while the project
   * has a protected environment (409 `change_request_required`, Protection.ts).
   */
  readonly patch: (
    projectId: string,
    flagKey: string,
    input: PatchFlagInput,
    options?: WriteOptions
  ) => Effect.Effect<FlagWithUsage, VersionedWriteError | ChangeRequestRequired>
  /**
   * Deletes a flag with all its configurations and records `flag.deleted` (the flag as it was).
   * 409 while another flag names it as a prerequisite in any environment; a person's delete is
   * refused while the project has a protected environment (409 `change_request_required`).
   */
  readonly remove: (
    projectId: string,
    flagKey: string,
    options?: WriteOptions
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | PreconditionFailed | ChangeRequestRequired | StorageError>
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
  ) => Effect.Effect<FlagWithUsage, InvalidRequest | ResourceNotFound | PreconditionFailed | ChangeRequestRequired | StorageError>
  /**
   * The flag's configuration in one environment as the API shows it (with its `version` and
   * `lastEvaluatedAt`); 404 for an unknown project, flag or environment.
   */
  readonly targeting: (
    projectId: string,
    flagKey: string,
    environment: string
  ) => Effect.Effect<ConfigWithUsage, ResourceNotFound | StorageError>
  /**
   * Checks `input` exactly as `replaceTargeting` would, writing nothing: the same 404 for an
   * unknown project, flag or environment and the same 400 with every problem (scheduled changes
   * validate with it when they are made). Answers the flag as it is now.
   */
  readonly validateTargeting: (
    projectId: string,
    flagKey: string,
    input: TargetingInput
  ) => Effect.Effect<Flag, InvalidRequest | ResourceNotFound | StorageError>
}

export class Flags extends Context.Tag("@flagport/services/Flags")<Flags, FlagsShape>() {}

const invalid = (message: string, details: ReadonlyArray<Problem>) =>
  new InvalidRequest({ message, details: [...details] })

const quoted = (keys: ReadonlyArray<string>) => keys.map((k) => `'${k}'`).join(", ")

/** The flags (other than `flagKey`) whose configuration in some environment requires `flagKey`, optionally as one of `variations`. */
const dependentsOf = (all: ReadonlyArray<Flag>, flagKey: string, variations?: ReadonlySet<string>): ReadonlyArray<string> =>
  all
    .filter(
      (other) =>
        other.key !== flagKey &&
        other.configs.some((c) => (c.prerequisites ?? []).some((p) => p.flagKey === flagKey && (variations === undefined || variations.has(p.variationKey))))
    )
    .map((other) => other.key)

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const flags = yield* FlagRepository
  const segments = yield* SegmentRepository
  const ids = yield* IdGenerator
  const writes = yield* Writes.writer
  const view = yield* FlagUsage.viewer

  /** One flag as the API shows it; the flags requiring others are read only when the usage needs them. */
  const viewOne = (projectId: string, flag: Flag) => Effect.map(view(projectId, [flag], flags.listRequiring(projectId)), (shown) => shown[0]!)

  /**
   * What a write answers: the flag it wrote as the API shows it, read inside the write's
   * transaction, where a statement is cheapest (it runs on the connection the write already holds)
   * and the usage is read at the same moment as the flag.
   */
  const answer = (projectId: string, written: Writes.Written<Flag>) =>
    Effect.map(viewOne(projectId, written.value), (value): Writes.Written<FlagWithUsage> => ({ ...written, value }))

  /**
   * Inside a write: the flag, or 404 (the project was already checked by the revision bump),
   * and the write's preconditions on it.
   */
  const load = (projectId: string, flagKey: string, options?: WriteOptions) =>
    flags.get(projectId, flagKey).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(flagNotFound(projectId, flagKey)), onSome: Effect.succeed })),
      Effect.tap((flag) => checkPreconditions(flag, options))
    )

  const create = Effect.fn("Flags.create")(function* (projectId: string, input: CreateFlagInput) {
    const problems = Validation.validateCreateFlag(input)
    if (problems.length > 0) return yield* invalid("Invalid flag", problems)
    const id = yield* ids.next
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const envs = yield* environments.list(projectId)
        const flag: Flag = {
          id,
          key: input.key,
          name: input.name ?? input.key,
          description: input.description ?? null,
          type: input.type,
          variations: input.variations,
          configs: envs.map((env) => ({ ...disabledConfig(env.key, input.variations), version: 1 })),
          createdAt: now,
          updatedAt: now,
          version: 1
        }
        yield* flags.insert(projectId, flag).pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(new ResourceConflict({ message: `Flag '${input.key}' already exists in project '${projectId}'` }))
          )
        )
        return yield* answer(projectId, {
          value: flag,
          events: [{ type: "flag.created", flag }],
          audit: [{ action: "flag.created", resource: { type: "flag", key: flag.key }, before: null, after: flag }],
          change: configChanged(projectId, revision, "flag", { flagKeys: [flag.key] })
        })
      })
    )
  })

  const list = Effect.fn("Flags.list")(function* (projectId: string) {
    yield* requireProject(projects, projectId)
    const all = yield* flags.list(projectId)
    return yield* view(projectId, all, all)
  })

  /** The stored flag, or 404 for an unknown project or flag. */
  const stored = (projectId: string, flagKey: string) =>
    Effect.gen(function* () {
      const found = yield* flags.get(projectId, flagKey)
      if (Option.isSome(found)) return found.value
      yield* requireProject(projects, projectId)
      return yield* flagNotFound(projectId, flagKey)
    })

  const get = Effect.fn("Flags.get")(function* (projectId: string, flagKey: string) {
    return yield* viewOne(projectId, yield* stored(projectId, flagKey))
  })

  /** The 409 of a patch removing variations that a configuration, rule or other flag still names. */
  const checkRemovedVariations = (projectId: string, flag: Flag, variations: ReadonlyArray<Flag["variations"][number]>) =>
    Effect.gen(function* () {
      const problems = Validation.validateVariations(flag.type, variations)
      if (problems.length > 0) return yield* invalid("Invalid variations", problems)
      const kept = new Set(variations.map((v) => v.key))
      const inUse = Validation.variationKeysInUse(flag.configs)
      const removedInUse = flag.variations.map((v) => v.key).filter((key) => !kept.has(key) && inUse.has(key))
      if (removedInUse.length > 0) {
        return yield* new ResourceConflict({
          message: `Variation(s) ${quoted(removedInUse)} of flag '${flag.key}' are still used by a configuration or rule`
        })
      }
      const removed = new Set(flag.variations.map((v) => v.key).filter((key) => !kept.has(key)))
      const requiring = removed.size === 0 ? [] : dependentsOf(yield* flags.list(projectId), flag.key, removed)
      if (requiring.length > 0) {
        return yield* new ResourceConflict({
          message: `A variation removed from flag '${flag.key}' is still required by flag(s) ${quoted(requiring)} as a prerequisite`
        })
      }
    })

  const patch = Effect.fn("Flags.patch")(function* (projectId: string, flagKey: string, input: PatchFlagInput, options?: WriteOptions) {
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const flag = yield* load(projectId, flagKey, options)
        yield* guardSharedWrite(yield* environments.list(projectId), { _tag: "PatchVariations", before: flag.variations, after: input.variations })
        if (input.variations !== undefined) yield* checkRemovedVariations(projectId, flag, input.variations)
        const variations = input.variations ?? flag.variations
        // New variations change what every environment serves: every configuration moves to the new version.
        const everyConfig = variationsChanged(flag.variations, variations)
        const updated: Flag = {
          ...flag,
          name: input.name ?? flag.name,
          description: input.description !== undefined ? input.description : flag.description,
          variations,
          configs: everyConfig ? flag.configs.map((c) => ({ ...c, version: flag.version + 1 })) : flag.configs,
          version: flag.version + 1,
          updatedAt: now
        }
        yield* compareAndSet(flags.update(projectId, updated, flag.version))
        // Name and description are not served (ConfigVersion.ts): unless the variations changed, no
        // environment's configuration differs, so none is named and no cached snapshot is rebuilt.
        const served = everyConfig ? "all" : []
        return yield* answer(projectId, {
          value: updated,
          events: [{ type: "flag.updated", flag: updated }],
          audit: [{ action: "flag.updated", resource: { type: "flag", key: flagKey }, before: flag, after: updated }],
          change: configChanged(projectId, revision, "flag", { environments: served, flagKeys: [flagKey] })
        })
      })
    )
  })

  const remove = Effect.fn("Flags.remove")(function* (projectId: string, flagKey: string, options?: WriteOptions) {
    yield* writes.serving(projectId, ({ revision }) =>
      Effect.gen(function* () {
        const flag = yield* load(projectId, flagKey, options)
        yield* guardSharedWrite(yield* environments.list(projectId), { _tag: "DeleteFlag" })
        const requiring = dependentsOf(yield* flags.list(projectId), flagKey)
        if (requiring.length > 0) {
          return yield* new ResourceConflict({
            message: `Flag '${flagKey}' is required by flag(s) ${quoted(requiring)} as a prerequisite; remove those prerequisites first`
          })
        }
        yield* compareAndSet(flags.remove(projectId, flagKey, flag.version))
        return {
          value: undefined,
          events: [{ type: "flag.deleted", flag }],
          audit: [{ action: "flag.deleted", resource: { type: "flag", key: flagKey }, before: flag, after: null }],
          change: configChanged(projectId, revision, "flag", { flagKeys: [flagKey] })
        } satisfies Writes.Written<void>
      })
    )
  })

  /**
   * The rules of a targeting write, in one place: the environment exists (404), every problem of
   * the input (400), prerequisites included. Reads the segments only when a rule names some, the
   * project's flags only when prerequisites are sent.
   */
  const checkTargeting = <E = never>(
    projectId: string,
    flag: Flag,
    input: TargetingInput,
    guard?: (environment: Environment) => Effect.Effect<void, E>
  ) =>
    Effect.gen(function* () {
      const environment = yield* environments.get(projectId, input.environment)
      if (Option.isNone(environment)) return yield* environmentNotFound(projectId, input.environment)
      // Whether the writer may write here at all comes before what they wrote.
      if (guard !== undefined) yield* guard(environment.value)
      // Validation reports malformed input with paths; until it has run, read the input defensively.
      const sentRules: ReadonlyArray<TargetingInput["rules"][number] | undefined> = Array.isArray(input.rules) ? input.rules : []
      const namesSegments = sentRules.some(
        (rule) =>
          !Array.isArray(rule?.conditions) ||
          rule.conditions.some((c) => isSegmentOperator(c?.operator))
      )
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
    const shown = yield* viewOne(projectId, yield* stored(projectId, flagKey))
    const config = shown.configs.find((c) => c.environmentKey === environment)
    // Every flag has a configuration in every environment of its project: none means no such environment.
    return config ?? (yield* environmentNotFound(projectId, environment))
  })

  const validateTargeting = Effect.fn("Flags.validateTargeting")(function* (projectId: string, flagKey: string, input: TargetingInput) {
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
    // Validation reports malformed input with paths; until it has run, read the input defensively.
    const sentRules: ReadonlyArray<TargetingInput["rules"][number] | undefined> = Array.isArray(input.rules) ? input.rules : []
    // Ids for rules sent without one are drawn before the transaction so it stays short.
    const freshIds = yield* Effect.forEach(
      sentRules.filter((rule) => rule?.id === undefined),
      () => ids.next
    )
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        const flag = yield* load(projectId, flagKey, options)
        yield* checkConfigPrecondition(flag, input.environment, options)
        yield* checkTargeting(projectId, flag, input, (environment) => guardDirectWrite(environment, options))
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
        return yield* answer(projectId, {
          value: updated,
          events: [{ type: "targeting.updated", flag: updated, environment: input.environment }],
          audit: [
            {
              action: "targeting.updated",
              resource: { type: "flag", key: flagKey },
              environment: input.environment,
              before: flag,
              after: updated,
              ...(options?.changeRequestId === undefined ? {} : { changeRequestId: options.changeRequestId })
            }
          ],
          change: configChanged(projectId, revision, "targeting", { environments: [input.environment], flagKeys: [flagKey] })
        })
      })
    )
  })

  return Flags.of({ create, list, get, patch, remove, replaceTargeting, targeting, validateTargeting })
})

export const layer = Layer.effect(Flags, make)
