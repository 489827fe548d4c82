/**
 * The protected-environment rule (domain/changes/Protection.ts) as the use cases apply it: the
 * writer is the running use case's actor (`CurrentActor`), so HTTP, the CLI, the scheduler and an
 * Effect host are judged alike.
 *
 * Judged before the write takes the project's lock (`Writes.serving`): a refused person's write
 * waits for no other write and holds up none. Only a person's hand is ever refused, so a key's or
 * the operator's write reads nothing for it; a person's reads the project's environments once. An
 * environment protected between that read and the write is like one protected just after it.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { directWrite, type GuardedEnvironment, isPersonsHand, sharedWrite, type SharedWrite } from "../../domain/changes/Protection.js"
import type { ChangeRequestRequired } from "../../domain/Errors.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import type { StorageError } from "../../ports/StorageError.js"

export interface DirectWriteOptions<E, R> {
  /** The write applies an approved change request: allowed (its approvals were its own rules'). */
  readonly changeRequestId?: string | undefined
  /**
   * What the write would refuse before its protection (an unknown flag, a stale version), asked
   * only when about to refuse, so a refused write answers as it always has.
   */
  readonly first?: Effect.Effect<unknown, E, R>
}

export interface ProtectionGuards {
  /**
   * 409 `change_request_required` when the actor may not write `environmentKey`'s configuration
   * directly (targeting, schedules, copies into it). An unknown environment is left to the write's 404.
   */
  readonly direct: <E = never, R = never>(
    projectId: string,
    environmentKey: string,
    options?: DirectWriteOptions<E, R>
  ) => Effect.Effect<void, E | ChangeRequestRequired | StorageError, R>
  /**
   * 409 `change_request_required` when `write` (a flag deleted, its variations rewritten, a segment
   * changed), asked for only when the actor is a person and the project has a protected
   * environment, changes what a protected environment serves (domain/changes/Protection.ts, `sharedWrite`).
   */
  readonly shared: <E = never, R = never>(
    projectId: string,
    write: Effect.Effect<SharedWrite, E, R>
  ) => Effect.Effect<void, E | ChangeRequestRequired | StorageError, R>
}

export const guards: Effect.Effect<ProtectionGuards, never, EnvironmentRepository> = Effect.map(EnvironmentRepository, (environments) => {
  const direct: ProtectionGuards["direct"] = (projectId, environmentKey, options) =>
    Effect.gen(function* () {
      const actor = yield* CurrentActor
      if (!isPersonsHand(actor) || options?.changeRequestId !== undefined) return
      const found = yield* environments.get(projectId, environmentKey)
      if (Option.isNone(found) || !found.value.protected) return
      if (options?.first !== undefined) yield* options.first
      yield* directWrite(actor, found.value)
    })

  const shared: ProtectionGuards["shared"] = (projectId, write) =>
    Effect.gen(function* () {
      const actor = yield* CurrentActor
      if (!isPersonsHand(actor)) return
      const listed = yield* environments.list(projectId)
      if (!listed.some((environment) => environment.protected)) return
      yield* sharedWrite(actor, listed, yield* write)
    })

  return { direct, shared }
})

/** Fails with 409 `change_request_required` when the actor may not write `environment` directly. */
export const guardDirectWrite = (
  environment: GuardedEnvironment,
  options?: { readonly changeRequestId?: string | undefined }
): Effect.Effect<void, ChangeRequestRequired> =>
  Effect.flatMap(CurrentActor, (actor) => directWrite(actor, environment, options?.changeRequestId !== undefined))

/**
 * Fails with 409 `change_request_required` when `write` would change what a protected environment
 * of the project serves and the actor is a person. `environments`: the project's, in project order,
 * so the refusal names the first one affected.
 */
export const guardSharedWrite = (
  environments: ReadonlyArray<GuardedEnvironment>,
  write: SharedWrite
): Effect.Effect<void, ChangeRequestRequired> => Effect.flatMap(CurrentActor, (actor) => sharedWrite(actor, environments, write))
