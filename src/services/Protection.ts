/**
 * The protected-environment rule (domain/changes/Protection.ts) as the use cases apply it: the
 * writer is the running use case's actor (`CurrentActor`), so HTTP, the CLI, the scheduler and an
 * Effect host are judged alike.
 */
import * as Effect from "effect/Effect"
import { CurrentActor } from "../domain/audit/Actor.js"
import { directWrite, type GuardedEnvironment } from "../domain/changes/Protection.js"
import type { ChangeRequestRequired } from "../domain/Errors.js"

/** Fails with 409 `change_request_required` when the actor may not write `environment` directly. */
export const guardDirectWrite = (
  environment: GuardedEnvironment,
  options?: { readonly changeRequestId?: string | undefined }
): Effect.Effect<void, ChangeRequestRequired> =>
  Effect.flatMap(CurrentActor, (actor) => directWrite(actor, environment, options?.changeRequestId !== undefined))
