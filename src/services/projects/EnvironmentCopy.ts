import { servedConfigChanged } from "../../domain/definitions/ConfigVersion.js"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type ChangeRequestRequired, type Forbidden, InvalidRequest, type PreconditionFailed, type ResourceNotFound } from "../../domain/Errors.js"
import type { Flag } from "../../domain/definitions/Flag.js"
import type { EnvironmentConfig } from "../../domain/definitions/Targeting.js"
import type { CopyEnvironmentInput } from "../../domain/definitions/CopyEnvironmentInput.js"
import { graphProblem, projectGraph } from "../../domain/definitions/ValidatePrerequisites.js"
import { environmentNotFound, flagNotFound } from "../../domain/NotFound.js"
import { configChanged } from "../../ports/ChangeFeed.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { compareAndSet, preconditionFailed, type WriteOptions } from "../flags/FlagVersions.js"
import { authorize } from "../shared/Authorize.js"
import * as Protection from "../shared/Protection.js"
import * as Writes from "../shared/Writes.js"

// The wire schema lives in the domain (adapters decode with it); re-exported for the kit's users.
export { CopyEnvironmentInput } from "../../domain/definitions/CopyEnvironmentInput.js"

export interface EnvironmentCopyShape {
  /**
   * Copies each named flag's configuration in `from` (enabled, default and off variations, rules
   * with their ids, prerequisites) to `to`, in one transaction: all flags or none. 400 when the
   * copied prerequisites would form a cycle or nest too deep in `to` (with its other flags). Every flag whose configuration
   * changed grows its version by one and records one `targeting.updated`; the answer lists their
   * keys. 400 when `from` is `to`, or for `ifMatch` without exactly one flag named; 404 for an
   * unknown project, environment or flag; 412 when `ifMatch` is not that flag's version. A person
   * copies nothing into a protected environment (409 `change_request_required`, Protection.ts).
   * Needs `write` in the project; a key bound to an environment copies into its own only from its
   * own, which a copy never is (it would read another environment's configuration there).
   */
  readonly copy: (
    projectId: string,
    to: string,
    input: CopyEnvironmentInput,
    options?: WriteOptions
  ) => Effect.Effect<ReadonlyArray<string>, InvalidRequest | ResourceNotFound | PreconditionFailed | ChangeRequestRequired | Forbidden | StorageError>
}

export class EnvironmentCopy extends Context.Tag("@flagport/services/EnvironmentCopy")<EnvironmentCopy, EnvironmentCopyShape>() {}

/** Whether the target already serves the copied configuration (the versions, each environment's own, aside). */
const sameConfig = (a: EnvironmentConfig | undefined, b: EnvironmentConfig) =>
  a !== undefined && !servedConfigChanged(a, b)

export const make = Effect.gen(function* () {
  const environments = yield* EnvironmentRepository
  const flags = yield* FlagRepository
  const writes = yield* Writes.writer
  const protection = yield* Protection.guards

  const copy = Effect.fn("EnvironmentCopy.copy")(function* (
    projectId: string,
    to: string,
    input: CopyEnvironmentInput,
    options?: WriteOptions
  ) {
    yield* authorize("EnvironmentCopy.copy", projectId, [to, input.from])
    if (input.from === to) {
      return yield* new InvalidRequest({
        message: "Cannot copy an environment onto itself.",
        details: [{ path: "from", message: "must name another environment than the target" }]
      })
    }
    const named = input.flags === undefined ? undefined : Array.from(new Set(input.flags))
    if (options?.ifMatch !== undefined && named?.length !== 1) {
      return yield* new InvalidRequest({
        message: "If-Match on a copy needs exactly one flag named in flags.",
        details: [{ path: "flags", message: "must name exactly one flag when If-Match is sent" }]
      })
    }
    const environmentOf = (key: string) =>
      Effect.flatMap(environments.get(projectId, key), Option.match({ onNone: () => environmentNotFound(projectId, key), onSome: Effect.succeed }))
    // A person copies nothing into a protected environment; an unknown source is still the 404 it was.
    yield* protection.direct(projectId, to, { first: environmentOf(input.from) })
    return yield* writes.serving(projectId, ({ now, revision }) =>
      Effect.gen(function* () {
        for (const key of [input.from, to]) yield* environmentOf(key)
        const all = yield* flags.list(projectId)
        const byKey = new Map(all.map((flag) => [flag.key, flag]))
        const selected: Array<Flag> = []
        for (const key of named ?? all.map((flag) => flag.key)) {
          const flag = byKey.get(key)
          if (flag === undefined) return yield* flagNotFound(projectId, key)
          selected.push(flag)
        }
        const only = selected[0]
        if (options?.ifMatch !== undefined && only !== undefined && only.version !== options.ifMatch) {
          return yield* preconditionFailed(only.key, only.version)
        }
        const copiedPrerequisites = new Map<string, ReadonlyArray<string>>()
        for (const flag of selected) {
          const source = flag.configs.find((c) => c.environmentKey === input.from)
          if (source !== undefined) copiedPrerequisites.set(flag.key, (source.prerequisites ?? []).map((p) => p.flagKey))
        }
        const problem = graphProblem(projectGraph(all, to), copiedPrerequisites)
        if (problem !== undefined) {
          return yield* new InvalidRequest({
            message: "The copied prerequisites cannot be evaluated in the target environment.",
            details: [{ path: "flags", message: problem }]
          })
        }
        // One event and one audit entry per flag changed: the copy is that many targeting changes.
        const changed: Array<{ readonly before: Flag; readonly after: Flag }> = []
        for (const flag of selected) {
          const source = flag.configs.find((c) => c.environmentKey === input.from)
          if (source === undefined) continue
          // The copy is a change of the target's configuration: it gets the flag's new version.
          const config: EnvironmentConfig = { ...source, environmentKey: to, version: flag.version + 1 }
          const current = flag.configs.find((c) => c.environmentKey === to)
          if (sameConfig(current, config)) continue
          const updated: Flag = {
            ...flag,
            configs: current === undefined ? [...flag.configs, config] : flag.configs.map((c) => (c.environmentKey === to ? config : c)),
            version: flag.version + 1,
            updatedAt: now
          }
          yield* compareAndSet(flags.updateConfig(projectId, updated, to, flag.version))
          changed.push({ before: flag, after: updated })
        }
        const keys = changed.map(({ after }) => after.key)
        return {
          value: keys,
          events: changed.map(({ after }) => ({ type: "targeting.updated", flag: after, environment: to })),
          audit: changed.map(({ before, after }) => ({
            action: "targeting.updated",
            resource: { type: "flag", key: after.key },
            environment: to,
            before,
            after
          })),
          change: configChanged(projectId, revision, "targeting", { environments: [to], flagKeys: keys })
        } satisfies Writes.Written<ReadonlyArray<string>>
      })
    )
  })

  return EnvironmentCopy.of({ copy })
})

export const layer = Layer.effect(EnvironmentCopy, make)
