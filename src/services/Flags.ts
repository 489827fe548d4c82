import { Context, Effect, Layer, Option } from "effect"
import { isSegmentOperator } from "../domain/conditions/OperatorTable.js"
import { InvalidRequest, PreconditionFailed, type Problem, ResourceConflict, ResourceNotFound } from "../domain/Errors.js"
import { variationsChanged } from "../domain/definitions/ConfigVersion.js"
import type { CreateFlagInput, Flag, PatchFlagInput } from "../domain/definitions/Flag.js"
import type { EnvironmentConfig, Rule, TargetingInput } from "../domain/definitions/Targeting.js"
import * as Validation from "../domain/definitions/Validation.js"
import { projectGraph, validatePrerequisites } from "../domain/definitions/ValidatePrerequisites.js"
import { makeFlagEvent } from "../domain/webhooks/Webhook.js"
import { ChangeFeed } from "../ports/ChangeFeed.js"
import { EnvironmentRepository } from "../ports/EnvironmentRepository.js"
import { EventOutbox } from "../ports/EventOutbox.js"
import { FlagRepository } from "../ports/FlagRepository.js"
import { IdGenerator } from "../ports/IdGenerator.js"
import { ProjectRepository } from "../ports/ProjectRepository.js"
import { SegmentRepository } from "../ports/SegmentRepository.js"
import type { StorageError, VersionConflict } from "../ports/StorageError.js"
import { Transactor } from "../ports/Transactor.js"
import * as AuditTrail from "./AuditTrail.js"
import { bumpRevision, commitAndAnnounce, configChanged, currentTimestamp, disabledConfig, environmentNotFound, requireProject } from "./Shared.js"

type WriteError = InvalidRequest | ResourceNotFound | ResourceConflict | StorageError

/**
 * Optimistic concurrency for a write to an existing flag: with `ifMatch`, the write happens only
 * while the flag is at that version (else `PreconditionFailed` naming the current one). Without
 * it, the last writer wins.
 */
export interface WriteOptions {
  readonly ifMatch?: number | undefined
}

type VersionedWriteError = WriteError | PreconditionFailed

export interface FlagsShape {
  /**
   * Creates a flag with a disabled configuration in every environment of the project
   * (default = first variation, off = last), version 1, and records `flag.created`.
   * 400 for invalid input, 404 for an unknown project, 409 for a duplicate key.
   */
  readonly create: (projectId: string, input: CreateFlagInput) => Effect.Effect<Flag, WriteError>
  /** The project's flags in creation order; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Flag>, ResourceNotFound | StorageError>
  /** One flag; 404 for an unknown project or flag. */
  readonly get: (projectId: string, flagKey: string) => Effect.Effect<Flag, ResourceNotFound | StorageError>
  /**
   * Changes name, description and/or variations (targeting untouched), grows the version by one
   * and records `flag.updated`. Announces a change to every environment when the variations
   * changed, to none when only name and description did (neither is served). New variations must match the flag's type with unique keys
   * (400); removing a variation that a configuration or rule still names is a 409.
   */
  readonly patch: (
    projectId: string,
    flagKey: string,
    input: PatchFlagInput,
    options?: WriteOptions
  ) => Effect.Effect<Flag, VersionedWriteError>
  /**
   * Deletes a flag with all its configurations and records `flag.deleted` (the flag as it was).
   * 409 while another flag names it as a prerequisite in any environment.
   */
  readonly remove: (
    projectId: string,
    flagKey: string,
    options?: WriteOptions
  ) => Effect.Effect<void, ResourceNotFound | ResourceConflict | PreconditionFailed | StorageError>
  /**
   * Replaces one environment's configuration whole, assigns ids to rules sent without one (sent
   * ids are kept), grows the version by one and records `targeting.updated`. Prerequisites
   * (default none) must name flags and variations of the project without making a cycle or
   * nesting deeper than the limit (ValidatePrerequisites.ts). All or nothing:
   * any problem (400) or unknown environment / flag (404) leaves the flag untouched.
   */
  readonly replaceTargeting: (
    projectId: string,
    flagKey: string,
    input: TargetingInput,
    options?: WriteOptions
  ) => Effect.Effect<Flag, InvalidRequest | ResourceNotFound | PreconditionFailed | StorageError>
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

export const flagNotFound = (projectId: string, flagKey: string) =>
  new ResourceNotFound({ message: `Flag '${flagKey}' not found in project '${projectId}'` })

/** The 412 of a write based on another version than the current one. */
export const preconditionFailed = (flagKey: string, currentVersion: number) =>
  new PreconditionFailed({ message: `Flag '${flagKey}' is at version ${currentVersion}, not the version named by If-Match`, currentVersion })

/** Fails unless `ifMatch` (when given) is the version just read. */
const checkVersion = (flag: Flag, options: WriteOptions | undefined) =>
  options?.ifMatch === undefined || options.ifMatch === flag.version ? Effect.void : Effect.fail(preconditionFailed(flag.key, flag.version))

/**
 * The storage's compare-and-set missed: another write landed between this transaction's read and
 * its write. Writes to a project are serialized by the revision bump, so this is a safety net that
 * keeps the rule in the storage statement itself.
 */
const versionConflict = (error: VersionConflict) => Effect.fail(preconditionFailed(error.key, error.current))

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
  const outbox = yield* EventOutbox
  const ids = yield* IdGenerator
  const tx = yield* Transactor
  const feed = yield* ChangeFeed
  const audit = yield* AuditTrail.recorder

  /** Inside a write: the flag or 404 (the project was already checked by the revision bump). */
  const load = (projectId: string, flagKey: string) =>
    flags.get(projectId, flagKey).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(flagNotFound(projectId, flagKey)), onSome: Effect.succeed }))
    )

  /** Writes `flag`, based on the version `read` (compare-and-set); a flag just read cannot be missing. */
  const save = (projectId: string, flag: Flag, read: number) =>
    flags.update(projectId, flag, read).pipe(Effect.catchTag("NotFound", Effect.die), Effect.catchTag("VersionConflict", versionConflict))

  const create = Effect.fn("Flags.create")(function* (projectId: string, input: CreateFlagInput) {
    const problems = Validation.validateCreateFlag(input)
    if (problems.length > 0) return yield* invalid("Invalid flag", problems)
    const now = yield* currentTimestamp
    const id = yield* ids.next
    const eventId = yield* ids.next
    return yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        const envs = yield* environments.list(projectId)
        const flag: Flag = {
          id,
          key: input.key,
          name: input.name ?? input.key,
          description: input.description ?? null,
          type: input.type,
          variations: input.variations,
          configs: envs.map((env) => disabledConfig(env.key, input.variations)),
          createdAt: now,
          updatedAt: now,
          version: 1
        }
        yield* flags.insert(projectId, flag).pipe(
          Effect.catchTag("DuplicateKey", () =>
            Effect.fail(new ResourceConflict({ message: `Flag '${input.key}' already exists in project '${projectId}'` }))
          )
        )
        yield* outbox.append(makeFlagEvent({ id: eventId, type: "flag.created", projectId, occurredAt: now, flag }))
        yield* audit({ projectId, at: now, action: "flag.created", resource: { type: "flag", key: flag.key }, before: null, after: flag })
        return [flag, configChanged(projectId, revision, "flag", { flagKeys: [flag.key] })] as const
      })
    )
  })

  const list = Effect.fn("Flags.list")(function* (projectId: string) {
    yield* requireProject(projects, projectId)
    return yield* flags.list(projectId)
  })

  const get = Effect.fn("Flags.get")(function* (projectId: string, flagKey: string) {
    const found = yield* flags.get(projectId, flagKey)
    if (Option.isSome(found)) return found.value
    yield* requireProject(projects, projectId)
    return yield* flagNotFound(projectId, flagKey)
  })

  const patch = Effect.fn("Flags.patch")(function* (projectId: string, flagKey: string, input: PatchFlagInput, options?: WriteOptions) {
    const now = yield* currentTimestamp
    const eventId = yield* ids.next
    return yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        const flag = yield* load(projectId, flagKey)
        yield* checkVersion(flag, options)
        if (input.variations !== undefined) {
          const problems = Validation.validateVariations(flag.type, input.variations)
          if (problems.length > 0) return yield* invalid("Invalid variations", problems)
          const kept = new Set(input.variations.map((v) => v.key))
          const inUse = Validation.variationKeysInUse(flag.configs)
          const removedInUse = flag.variations.map((v) => v.key).filter((key) => !kept.has(key) && inUse.has(key))
          if (removedInUse.length > 0) {
            return yield* new ResourceConflict({
              message: `Variation(s) ${removedInUse.map((k) => `'${k}'`).join(", ")} of flag '${flagKey}' are still used by a configuration or rule`
            })
          }
          const removed = new Set(flag.variations.map((v) => v.key).filter((key) => !kept.has(key)))
          const requiring = removed.size === 0 ? [] : dependentsOf(yield* flags.list(projectId), flagKey, removed)
          if (requiring.length > 0) {
            return yield* new ResourceConflict({
              message: `A variation removed from flag '${flagKey}' is still required by flag(s) ${quoted(requiring)} as a prerequisite`
            })
          }
        }
        const updated: Flag = {
          ...flag,
          name: input.name ?? flag.name,
          description: input.description !== undefined ? input.description : flag.description,
          variations: input.variations ?? flag.variations,
          version: flag.version + 1,
          updatedAt: now
        }
        yield* save(projectId, updated, flag.version)
        yield* outbox.append(makeFlagEvent({ id: eventId, type: "flag.updated", projectId, occurredAt: now, flag: updated }))
        yield* audit({ projectId, at: now, action: "flag.updated", resource: { type: "flag", key: flagKey }, before: flag, after: updated })
        // Name and description are not served (ConfigVersion.ts): unless the variations changed, no
        // environment's configuration differs, so none is named and no cached snapshot is rebuilt.
        const served = variationsChanged(flag.variations, updated.variations) ? "all" : []
        return [updated, configChanged(projectId, revision, "flag", { environments: served, flagKeys: [flagKey] })] as const
      })
    )
  })

  const remove = Effect.fn("Flags.remove")(function* (projectId: string, flagKey: string, options?: WriteOptions) {
    const now = yield* currentTimestamp
    const eventId = yield* ids.next
    yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        const flag = yield* load(projectId, flagKey)
        yield* checkVersion(flag, options)
        const requiring = dependentsOf(yield* flags.list(projectId), flagKey)
        if (requiring.length > 0) {
          return yield* new ResourceConflict({
            message: `Flag '${flagKey}' is required by flag(s) ${quoted(requiring)} as a prerequisite; remove those prerequisites first`
          })
        }
        yield* flags.remove(projectId, flagKey, flag.version).pipe(
          Effect.catchTag("NotFound", Effect.die),
          Effect.catchTag("VersionConflict", versionConflict)
        )
        yield* outbox.append(makeFlagEvent({ id: eventId, type: "flag.deleted", projectId, occurredAt: now, flag }))
        yield* audit({ projectId, at: now, action: "flag.deleted", resource: { type: "flag", key: flagKey }, before: flag, after: null })
        return [undefined, configChanged(projectId, revision, "flag", { flagKeys: [flagKey] })] as const
      })
    )
  })

  /**
   * The rules of a targeting write, in one place: the environment exists (404), every problem of
   * the input (400), prerequisites included. Reads the segments only when a rule names some, the
   * project's flags only when prerequisites are sent.
   */
  const checkTargeting = (projectId: string, flag: Flag, input: TargetingInput) =>
    Effect.gen(function* () {
      const environment = yield* environments.get(projectId, input.environment)
      if (Option.isNone(environment)) return yield* environmentNotFound(projectId, input.environment)
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

  const validateTargeting = Effect.fn("Flags.validateTargeting")(function* (projectId: string, flagKey: string, input: TargetingInput) {
    const flag = yield* get(projectId, flagKey)
    yield* checkTargeting(projectId, flag, input)
    return flag
  })

  const replaceTargeting = Effect.fn("Flags.replaceTargeting")(function* (
    projectId: string,
    flagKey: string,
    input: TargetingInput,
    options?: WriteOptions
  ) {
    const now = yield* currentTimestamp
    const eventId = yield* ids.next
    // Validation reports malformed input with paths; until it has run, read the input defensively.
    const sentRules: ReadonlyArray<TargetingInput["rules"][number] | undefined> = Array.isArray(input.rules) ? input.rules : []
    // Ids for rules sent without one are drawn before the transaction so it stays short.
    const freshIds = yield* Effect.forEach(
      sentRules.filter((rule) => rule?.id === undefined),
      () => ids.next
    )
    return yield* commitAndAnnounce(
      tx,
      feed,
      Effect.gen(function* () {
        const revision = yield* bumpRevision(projects, projectId)
        const flag = yield* load(projectId, flagKey)
        yield* checkVersion(flag, options)
        yield* checkTargeting(projectId, flag, input)
        let next = 0
        const rules: Array<Rule> = input.rules.map((rule) => ({ ...rule, id: rule.id ?? `rule-${freshIds[next++]}` }))
        const config: EnvironmentConfig = {
          environmentKey: input.environment,
          enabled: input.enabled,
          defaultVariationKey: input.defaultVariationKey,
          offVariationKey: input.offVariationKey,
          prerequisites: input.prerequisites ?? [],
          rules
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
        yield* flags.updateConfig(projectId, updated, input.environment, flag.version).pipe(
          Effect.catchTag("NotFound", Effect.die),
          Effect.catchTag("VersionConflict", versionConflict)
        )
        yield* outbox.append(
          makeFlagEvent({
            id: eventId,
            type: "targeting.updated",
            projectId,
            occurredAt: now,
            flag: updated,
            environment: input.environment
          })
        )
        yield* audit({
          projectId,
          at: now,
          action: "targeting.updated",
          resource: { type: "flag", key: flagKey },
          environment: input.environment,
          before: flag,
          after: updated
        })
        const change = configChanged(projectId, revision, "targeting", { environments: [input.environment], flagKeys: [flagKey] })
        return [updated, change] as const
      })
    )
  })

  return Flags.of({ create, list, get, patch, remove, replaceTargeting, validateTargeting })
})

export const layer = Layer.effect(Flags, make)
