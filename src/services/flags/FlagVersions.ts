/**
 * Optimistic concurrency of flag writes: `If-Match` checked against the version read in the
 * write's transaction, and the storage's compare-and-set behind it as a safety net.
 */
import * as Effect from "effect/Effect"
import type { Flag } from "../../domain/definitions/Flag.js"
import { PreconditionFailed, type ResourceNotFound } from "../../domain/Errors.js"
import { flagReplaced } from "../../domain/NotFound.js"
import type { NotFound, StorageError, VersionConflict } from "../../ports/StorageError.js"

/**
 * With `ifMatch`, a write to an existing flag happens only while the flag is at that version
 * (else `PreconditionFailed` naming the current one); without it, the last writer wins. With
 * `flagId` (the scheduler's), only while the flag under that key is still that flag (else 404).
 */
export interface WriteOptions {
  readonly ifMatch?: number | undefined
  /**
   * `If-Match` naming one environment's configuration (its version, ConfigVersion.ts): a targeting
   * write to that environment happens only while its configuration is at that version, whatever
   * changed elsewhere in the flag (else `PreconditionFailed` naming the configuration's version).
   */
  readonly ifMatchConfig?: { readonly environment: string; readonly version: number } | undefined
  readonly flagId?: string | undefined
  /**
   * The write applies this approved change request (ChangeRequests.ts): the request's own rules
   * decided it may change a protected environment, and the audit entry names the request.
   */
  readonly changeRequestId?: string | undefined
}

/** The 412 of a write based on another version than the current one. */
export const preconditionFailed = (flagKey: string, currentVersion: number) =>
  new PreconditionFailed({ message: `Flag '${flagKey}' is at version ${currentVersion}, not the version named by If-Match`, currentVersion })

/** The 412 of a targeting write based on another version of that environment's configuration. */
export const configPreconditionFailed = (flagKey: string, environment: string, currentVersion: number) =>
  new PreconditionFailed({
    message: `The targeting of flag '${flagKey}' in '${environment}' is at version ${currentVersion}, not the version named by If-Match`,
    currentVersion,
    environment
  })

/**
 * Fails unless `environment`'s configuration of the flag just read is at the version `options`
 * name (when they name one). A configuration the flag does not have yet is at version 0.
 */
export const checkConfigPrecondition = (flag: Flag, environment: string, options: WriteOptions | undefined): Effect.Effect<void, PreconditionFailed> => {
  const expected = options?.ifMatchConfig
  if (expected === undefined) return Effect.void
  const current = flag.configs.find((c) => c.environmentKey === environment)?.version ?? 0
  if (expected.environment !== environment) return Effect.fail(configPreconditionFailed(flag.key, environment, current))
  return expected.version === current ? Effect.void : Effect.fail(configPreconditionFailed(flag.key, environment, current))
}

/** Fails unless the flag just read is the one and the version `options` name (when they do). */
export const checkPreconditions = (flag: Flag, options: WriteOptions | undefined): Effect.Effect<void, PreconditionFailed | ResourceNotFound> => {
  if (options?.flagId !== undefined && options.flagId !== flag.id) return Effect.fail(flagReplaced(flag.key))
  if (options?.ifMatch !== undefined && options.ifMatch !== flag.version) return Effect.fail(preconditionFailed(flag.key, flag.version))
  return Effect.void
}

/**
 * A compare-and-set statement on a flag read in the same transaction: it cannot be missing, and a
 * missed compare means another write landed in between. Writes to a project are serialized by the
 * revision bump, so this is a safety net that keeps the rule in the storage statement itself.
 */
export const compareAndSet = <A>(
  statement: Effect.Effect<A, NotFound | VersionConflict | StorageError>
): Effect.Effect<A, PreconditionFailed | StorageError> =>
  statement.pipe(
    Effect.catchTag("NotFound", Effect.die),
    Effect.catchTag("VersionConflict", (conflict) => Effect.fail(preconditionFailed(conflict.key, conflict.current)))
  )
