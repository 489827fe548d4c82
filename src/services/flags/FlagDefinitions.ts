/**
 * The definitions half of the `Flags` use case (Flags.ts): a flag's creation, reading, its name,
 * description and variations, and its deletion. Its targeting in each environment is the other
 * half (FlagTargeting.ts).
 */
import * as Effect from "effect/Effect"
import { flagSeen } from "../../domain/auth/EnvironmentView.js"
import * as Policy from "../../domain/auth/Policy.js"
import { type ChangeRequestRequired, type Forbidden, type InvalidRequest, type PreconditionFailed, ResourceConflict, type ResourceNotFound } from "../../domain/Errors.js"
import { variationsChanged } from "../../domain/definitions/ConfigVersion.js"
import { type CreateFlagInput, disabledConfig, type Flag, type PatchFlagInput } from "../../domain/definitions/Flag.js"
import { type FlagListPage, type FlagListQuery, pageOf } from "../../domain/definitions/FlagList.js"
import type { FlagWithUsage } from "../../domain/insights/Usage.js"
import * as Validation from "../../domain/definitions/Validation.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { allowedBy, authorize } from "../shared/Authorize.js"
import * as Protection from "../shared/Protection.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"
import * as RunningOnFlag from "../experiments/RunningOnFlag.js"
import * as PlanRemovals from "../releaseplans/PlanRemovals.js"
import { invalid, type FlagReads } from "./FlagReads.js"
import { checkPreconditions, compareAndSet, type WriteOptions } from "./FlagVersions.js"

type WriteError = InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError

type VersionedWriteError = WriteError | PreconditionFailed

/**
 * Who may ask (`CurrentCaller`, domain/auth/Permissions.ts): reading needs `read` in the project,
 * writing `write`. A flag has a configuration in every environment, so a key bound to one
 * environment creates and deletes none and changes no variations (403); it reads each flag with its
 * own environment's configuration only (EnvironmentView.ts) and may send a flag's variations back
 * unchanged (left out of the write, so a concurrent change of them is never undone).
 */
export interface FlagDefinitionsShape {
  /**
   * Creates a flag with a disabled configuration in every environment of the project
   * (default = first variation, off = last), version 1, and records `flag.created`.
   * 400 for invalid input, 404 for an unknown project, 409 for a duplicate key.
   */
  readonly create: (projectId: string, input: CreateFlagInput) => Effect.Effect<FlagWithUsage, WriteError>
  /** The project's flags in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<FlagWithUsage>, ResourceNotFound | Forbidden | StorageError>
  /**
   * The flags list's answer (FlagList.ts): the project's flags narrowed by staleness, type and
   * search text, whole in creation order or one page of them in key order with the next cursor.
   * 400 for a `limit` out of range or a cursor no page answered; 404 for an unknown project.
   */
  readonly page: (projectId: string, query: FlagListQuery) => Effect.Effect<FlagListPage<FlagWithUsage>, InvalidRequest | ResourceNotFound | Forbidden | StorageError>
  /** One flag; 404 for an unknown project or flag. */
  readonly get: (projectId: string, flagKey: string) => Effect.Effect<FlagWithUsage, ResourceNotFound | Forbidden | StorageError>
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
   * 409 while another flag names it as a prerequisite in any environment, while a release plan
   * holds it or a running experiment measures it; a person's delete is
   * refused while the project has a protected environment (409 `change_request_required`).
   */
  readonly remove: (
    projectId: string,
    flagKey: string,
    options?: WriteOptions
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | PreconditionFailed | ChangeRequestRequired | Forbidden | StorageError>
}

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

export const make = (reads: FlagReads) =>
  Effect.gen(function* () {
    const projects = yield* ProjectRepository
    const environments = yield* EnvironmentRepository
    const flags = yield* FlagRepository
    const removePlans = yield* PlanRemovals.remover
    const refuseWhileMeasured = yield* RunningOnFlag.refuser
    const ids = yield* IdGenerator
    const writes = yield* Writes.writer
    const protection = yield* Protection.guards
    const { answer, load, stored, view, viewOne } = reads

    /** The flag as stored and its write's preconditions, read before the write's lock (404, 412 as inside it). */
    const current = (projectId: string, flagKey: string, options?: WriteOptions) =>
      Effect.tap(stored(projectId, flagKey), (flag) => checkPreconditions(flag, options))

    /**
     * The patch as the caller may make it: a key bound to one environment sends a flag's variations
     * back only unchanged (Policy.authorizeVariationsWrite), and they are then left out of the write.
     */
    const patchAllowed = (projectId: string, flagKey: string, input: PatchFlagInput): Effect.Effect<{ readonly input: PatchFlagInput; readonly seen: string | null }, Forbidden | ResourceNotFound | StorageError> =>
      Effect.gen(function* () {
        const { seen } = yield* authorize("Flags.patch", projectId)
        if (input.variations === undefined || seen === null) return { input, seen }
        const flag = yield* stored(projectId, flagKey)
        yield* allowedBy((caller) => Policy.authorizeVariationsWrite(caller, flag.variations, input.variations))
        const { variations: _same, ...rest } = input
        return { input: rest, seen }
      })

    const create = Effect.fn("Flags.create")(function* (projectId: string, input: CreateFlagInput) {
      yield* authorize("Flags.create", projectId)
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
      const { seen } = yield* authorize("Flags.list", projectId)
      yield* requireProject(projects, projectId)
      const all = yield* flags.list(projectId)
      return (yield* view(projectId, all, all)).map((flag) => flagSeen(seen, flag))
    })

    const page = Effect.fn("Flags.page")(function* (projectId: string, query: FlagListQuery) {
      return yield* pageOf(yield* list(projectId), query)
    })

    const get = Effect.fn("Flags.get")(function* (projectId: string, flagKey: string) {
      const { seen } = yield* authorize("Flags.get", projectId)
      return flagSeen(seen, yield* viewOne(projectId, yield* stored(projectId, flagKey)))
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

    const patch = Effect.fn("Flags.patch")(function* (projectId: string, flagKey: string, sent: PatchFlagInput, options?: WriteOptions) {
      const { input, seen } = yield* patchAllowed(projectId, flagKey, sent)
      // A person rewrites no variation a protected environment serves (Protection.ts), judged before the lock.
      yield* protection.shared(projectId, Effect.map(current(projectId, flagKey, options), (flag) => ({ _tag: "PatchVariations" as const, before: flag.variations, after: input.variations })))
      const written = yield* writes.serving(projectId, ({ now, revision }) =>
        Effect.gen(function* () {
          const flag = yield* load(projectId, flagKey, options)
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
      return flagSeen(seen, written)
    })

    const remove = Effect.fn("Flags.remove")(function* (projectId: string, flagKey: string, options?: WriteOptions) {
      yield* authorize("Flags.remove", projectId)
      // A person deletes no flag while the project has a protected environment (Protection.ts), judged before the lock.
      yield* protection.shared(projectId, Effect.as(current(projectId, flagKey, options), { _tag: "DeleteFlag" as const }))
      yield* writes.serving(projectId, ({ revision }) =>
        Effect.gen(function* () {
          const flag = yield* load(projectId, flagKey, options)
          const requiring = dependentsOf(yield* flags.list(projectId), flagKey)
          if (requiring.length > 0) {
            return yield* new ResourceConflict({
              message: `Flag '${flagKey}' is required by flag(s) ${quoted(requiring)} as a prerequisite; remove those prerequisites first`
            })
          }
          yield* refuseWhileMeasured(projectId, flagKey)
          // Its release plans go with it, or a plan still ramping it refuses (PlanRemovals.ts).
          const plansRemoved = yield* removePlans(projectId, flagKey)
          yield* compareAndSet(flags.remove(projectId, flagKey, flag.version))
          return {
            value: undefined,
            events: [{ type: "flag.deleted", flag }],
            audit: [...plansRemoved, { action: "flag.deleted", resource: { type: "flag", key: flagKey }, before: flag, after: null }],
            change: configChanged(projectId, revision, "flag", { flagKeys: [flagKey] })
          } satisfies Writes.Written<void>
        })
      )
    })

    return { create, list, page, get, patch, remove } satisfies FlagDefinitionsShape
  })
