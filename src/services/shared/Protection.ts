/**
 * The protected-environment rule (domain/changes/Protection.ts) as the use cases apply it: the
 * writer is the running use case's actor (`CurrentActor`), so HTTP, the CLI, the scheduler and an
 * Effect host are judged alike.
 */
import * as Effect from "effect/Effect"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { directWrite, type GuardedEnvironment, sharedWrite, type SharedWrite } from "../../domain/changes/Protection.js"
import type { ChangeRequestRequired } from "../../domain/Errors.js"

/** Fails with 409 `change_request_required` when the actor may not write `environment` directly. */
export const guardDirectWrite = (
  environment: GuardedEnvironment,
  options?: { readonly changeRequestId?: string | undefined }
): Effect.Effect<void, ChangeRequestRequired> =>
  Effect.flatMap(CurrentActor, (actor) => directWrite(actor, environment, options?.changeRequestId !== undefined))

/**
 * Fails with 409 `change_request_required` when `write` (a flag deleted, its variations rewritten,
 * a segment changed) would change what a protected environment of the project serves and the
 * actor is a person (domain/changes/Protection.ts, `sharedWrite`). `environments`: the project's,
 * in project order, so the refusal names the first one affected.
 */
export const guardSharedWrite = (
  environments: ReadonlyArray<GuardedEnvironment>,
  write: SharedWrite
): Effect.Effect<void, ChangeRequestRequired> => Effect.flatMap(CurrentActor, (actor) => sharedWrite(actor, environments, write))
