/**
 * A key's revocation as one write, whoever asks for it: a person or key revoking it, or the
 * revocation of a person's keys when they may no longer manage the key's project (MakerKeys.ts).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ApiKey } from "../../domain/auth/ApiKey.js"
import { keyNotFound } from "../../domain/NotFound.js"
import { ApiKeyRepository } from "../../ports/ApiKeyRepository.js"
import type { Change } from "../../ports/ChangeFeed.js"
import * as AuthorSchedules from "../schedules/AuthorSchedules.js"
import * as Writes from "../shared/Writes.js"

/**
 * Revokes `before` (idempotent: a revoked key keeps its first time) and answers the key as it is
 * now. In the same write: its pending schedules cancelled (a revoked key leaves no change planted
 * for later), a `key.revoked` entry in its project's log (with `reason` when given: why a
 * revocation nobody asked for happened), and the revocation announced to every server's key cache.
 */
export const revoker = Effect.gen(function* () {
  const keys = yield* ApiKeyRepository
  const writes = yield* Writes.writer
  const cancelSchedulesOf = yield* AuthorSchedules.canceller
  return (before: ApiKey, reason?: string) =>
    writes.record(before.projectId, ({ now }) =>
      Effect.gen(function* () {
        yield* keys.revoke(before.id, now)
        yield* cancelSchedulesOf(before.id, before.projectId)
        const key = Option.getOrThrow(yield* keys.get(before.id))
        const change: Change = { _tag: "ApiKeyRevoked", keyId: key.id, projectId: key.projectId }
        return {
          value: key,
          audit: [
            {
              action: "key.revoked",
              resource: { type: "key" as const, key: key.id },
              ...(key.environment === null ? {} : { environment: key.environment }),
              ...(reason === undefined ? {} : { reason }),
              before,
              after: key
            }
          ],
          change
        }
      })
    ).pipe(Effect.catchTag("NotFound", () => keyNotFound(before.id)))
})
