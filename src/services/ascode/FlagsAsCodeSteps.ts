/**
 * How each planned change of an apply is written: through the very use case of its API call
 * (Flags, Segments, Environments, Projects, ReleasePlans, ChangeRequests), so each is validated, audited,
 * announced and sent to webhooks exactly as that call would be. FlagsAsCode.ts runs them in one
 * transaction (each use case's own write nests in it as a savepoint).
 */
import { DEFAULT_KEY_ATTRIBUTE } from "../../domain/definitions/Segment.js"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Variation } from "../../domain/definitions/Flag.js"
import type { FileTargeting } from "../../domain/ascode/ProjectFile.js"
import type { ChangeOf, FileDefinition, PlannedChange } from "../../domain/ascode/Plan.js"
import type { OpenedChangeRequest } from "../../domain/ascode/ApplyResult.js"
import { MAX_CHANGES } from "../../domain/changes/ChangeRequest.js"
import * as Validation from "../../domain/definitions/Validation.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ChangeRequests } from "../changes/ChangeRequests.js"
import { Environments } from "../projects/Environments.js"
import { Flags } from "../flags/Flags.js"
import { Projects } from "../projects/Projects.js"
import { ReleasePlans } from "../releaseplans/ReleasePlans.js"
import { Segments } from "../segments/Segments.js"

const targetingBody = (t: FileTargeting) => ({
  enabled: t.enabled,
  defaultVariationKey: t.defaultVariationKey,
  offVariationKey: t.offVariationKey,
  prerequisites: t.prerequisites ?? [],
  rules: t.rules ?? []
})

export const steps = Effect.gen(function* () {
  const projects = yield* Projects
  const environments = yield* Environments
  const segments = yield* Segments
  const flags = yield* Flags
  const flagRepo = yield* FlagRepository
  const changeRequests = yield* ChangeRequests
  const releasePlans = yield* ReleasePlans

  /**
   * A flag's new variations. When a variation it drops is still named by a configuration (one the
   * file changes next) or another flag's prerequisite, the flag first gets the new variations
   * plus those, and the rest are dropped once the targeting is written (`finish`).
   */
  const updateDefinition = (projectId: string, after: FileDefinition) =>
    Effect.gen(function* () {
      const stored = Option.getOrUndefined(yield* flagRepo.get(projectId, after.key))
      const kept = new Set(after.variations.map((v) => v.key))
      const inUse = new Set([
        ...Validation.variationKeysInUse(stored?.configs ?? []),
        ...(yield* flagRepo.list(projectId)).flatMap((f) => f.configs.flatMap((c) => (c.prerequisites ?? []).filter((p) => p.flagKey === after.key).map((p) => p.variationKey)))
      ])
      const lingering: ReadonlyArray<Variation> = (stored?.variations ?? []).filter((v) => !kept.has(v.key) && inUse.has(v.key))
      const patch = { name: after.name ?? after.key, description: after.description ?? null }
      yield* flags.patch(projectId, after.key, { ...patch, variations: [...after.variations, ...lingering] })
      return lingering.length === 0 ? Effect.void : Effect.asVoid(flags.patch(projectId, after.key, { variations: after.variations }))
    })

  /** Writes one change; answers what must run after every targeting change (dropping lingering variations), if anything. */
  const run = (projectId: string, change: PlannedChange) =>
    Effect.gen(function* () {
      switch (change.resource) {
        case "project": {
          yield* projects.create({ id: change.after.id, name: change.after.name })
          return Effect.void
        }
        case "environment": {
          const { after } = change
          const settings = { clientConfig: after.clientConfig, protected: after.protected, requiredApprovals: after.requiredApprovals }
          if (change.action === "create") {
            const created = yield* environments.create(projectId, { key: after.key, name: after.name })
            const defaults = created.clientConfig === settings.clientConfig && created.protected === settings.protected &&
              created.requiredApprovals === settings.requiredApprovals
            if (!defaults) yield* environments.update(projectId, after.key, settings)
          } else {
            yield* environments.update(projectId, after.key, { name: after.name, ...settings })
          }
          return Effect.void
        }
        case "segment": {
          if (change.action === "delete") yield* segments.remove(projectId, change.key)
          else if (change.action === "create") yield* segments.create(projectId, change.after)
          else yield* segments.patch(projectId, change.key, { name: change.after.name, description: change.after.description ?? null, conditions: change.after.conditions, keyAttribute: change.after.keyAttribute ?? DEFAULT_KEY_ATTRIBUTE })
          return Effect.void
        }
        case "flag": {
          if (change.action === "delete") {
            yield* flags.remove(projectId, change.key)
            return Effect.void
          }
          const { after } = change
          if (change.action === "create") {
            yield* flags.create(projectId, { key: after.key, name: after.name ?? after.key, description: after.description ?? null, type: after.type, variations: after.variations })
            return Effect.void
          }
          return yield* updateDefinition(projectId, after)
        }
        case "targeting": {
          yield* flags.replaceTargeting(projectId, change.key, { environment: change.after.key, ...targetingBody(change.after) })
          return Effect.void
        }
        case "release_plan": {
          if (change.action === "create") yield* releasePlans.create(projectId, change.key, change.after)
          else if (change.action === "delete") yield* releasePlans.remove(projectId, change.key, change.releasePlanId)
          else {
            const { environment: _environment, ...definition } = change.after
            yield* releasePlans.update(projectId, change.key, change.releasePlanId, definition)
          }
          return Effect.void
        }
      }
    })

  /**
   * The proposed changes that update the author's pending request (`changeRequestId`): its changes
   * for those flags replaced, the others kept as proposed (the update re-bases them on the flags now).
   */
  const updatePending = (projectId: string, id: string, updates: ReadonlyArray<ChangeOf<"targeting">>) =>
    Effect.gen(function* () {
      const request = yield* changeRequests.get(projectId, id)
      const replaced = new Map(updates.map((c) => [c.key, targetingBody(c.after)]))
      const kept = request.changes.filter((c) => !replaced.has(c.flagKey)).map((c) => ({ flagKey: c.flagKey, targeting: c.after }))
      yield* changeRequests.update(projectId, id, { changes: [...kept, ...[...replaced].map(([flagKey, targeting]) => ({ flagKey, targeting }))] })
      return { id, action: "updated", environment: request.environment, flagKeys: updates.map((c) => c.key) } satisfies OpenedChangeRequest
    })

  /**
   * The targeting changes a person may not write directly, proposed as change requests: those
   * matched with the author's pending request update it; the rest open new ones (one per
   * environment, 50 flags each).
   */
  const propose = (projectId: string, proposed: ReadonlyArray<ChangeOf<"targeting">>) =>
    Effect.gen(function* () {
      const opened: Array<OpenedChangeRequest> = []
      const byRequest = new Map<string, Array<ChangeOf<"targeting">>>()
      const byEnvironment = new Map<string, Array<ChangeOf<"targeting">>>()
      for (const change of proposed) {
        if (change.changeRequestId === undefined) byEnvironment.set(change.environment, [...(byEnvironment.get(change.environment) ?? []), change])
        else byRequest.set(change.changeRequestId, [...(byRequest.get(change.changeRequestId) ?? []), change])
      }
      for (const [id, updates] of byRequest) opened.push(yield* updatePending(projectId, id, updates))
      for (const [environment, changes] of byEnvironment) {
        for (let start = 0; start < changes.length; start += MAX_CHANGES) {
          const chunk = changes.slice(start, start + MAX_CHANGES)
          const request = yield* changeRequests.open(projectId, {
            title: `Apply of the project file: ${chunk.length} flag${chunk.length === 1 ? "" : "s"} in ${environment}`,
            environment,
            changes: chunk.map((c) => ({ flagKey: c.key, targeting: targetingBody(c.after) }))
          })
          opened.push({ id: request.id, action: "opened", environment, flagKeys: chunk.map((c) => c.key) })
        }
      }
      return opened
    })

  return { run, propose }
})
