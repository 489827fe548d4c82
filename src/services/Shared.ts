import { Clock, Effect } from "effect"
import type { Variation } from "../domain/definitions/Flag.js"
import { formatTimestamp } from "../domain/definitions/Ids.js"
import type { EnvironmentConfig } from "../domain/definitions/Targeting.js"
import { ResourceNotFound } from "../domain/Errors.js"
import type { Change, ChangeFeedShape, ChangeKind, ConfigChanged } from "../ports/ChangeFeed.js"
import type { ProjectRepositoryShape } from "../ports/ProjectRepository.js"
import type { StorageError } from "../ports/StorageError.js"
import type { TransactorShape } from "../ports/Transactor.js"

/** The use case's single reading of the clock, as a contract timestamp. */
export const currentTimestamp: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, formatTimestamp)

export const projectNotFound = (projectId: string) => new ResourceNotFound({ message: `Project '${projectId}' not found` })

/** An environment the project does not have (for writes to it and for snapshots of it alike). */
export const environmentNotFound = (projectId: string, environmentKey: string) =>
  new ResourceNotFound({ message: `Environment '${environmentKey}' not found in project '${projectId}'` })

/**
 * First statement of every write to a project: bumps its snapshot revision (which, on
 * PostgreSQL, also locks the project row for the rest of the transaction) or answers 404.
 */
export const bumpRevision = (projects: ProjectRepositoryShape, projectId: string) =>
  projects.bumpRevision(projectId).pipe(Effect.catchTag("NotFound", () => Effect.fail(projectNotFound(projectId))))

/** Fails with 404 unless the project exists. */
export const requireProject = (projects: ProjectRepositoryShape, projectId: string) =>
  projects.get(projectId).pipe(
    Effect.flatMap((found) => (found._tag === "Some" ? Effect.succeed(found.value) : Effect.fail(projectNotFound(projectId))))
  )

/**
 * The configuration a flag gets in an environment it has never been configured for
 * (contract: disabled, default = first variation, off = last variation, no rules).
 */
export const disabledConfig = (environmentKey: string, variations: ReadonlyArray<Variation>): EnvironmentConfig => ({
  environmentKey,
  enabled: false,
  defaultVariationKey: variations[0]?.key ?? "",
  offVariationKey: variations[variations.length - 1]?.key ?? "",
  prerequisites: [],
  rules: []
})

/** A configuration change of a project at `revision`; unnamed lists are empty, environments "all". */
export const configChanged = (
  projectId: string,
  revision: number,
  kind: ChangeKind,
  named: {
    readonly environments?: ReadonlyArray<string> | "all"
    readonly flagKeys?: ReadonlyArray<string>
    readonly segmentKeys?: ReadonlyArray<string>
  } = {}
): ConfigChanged => ({
  _tag: "ConfigChanged",
  projectId,
  revision,
  environments: named.environments ?? "all",
  kind,
  flagKeys: named.flagKeys ?? [],
  segmentKeys: named.segmentKeys ?? []
})

/**
 * Runs `write` in one transaction and announces the change it returned once the outermost
 * transaction has committed (a failed or rolled back write announces nothing, also when a host
 * runs the use case inside a transaction of its own). Yields what the write produced.
 */
export const commitAndAnnounce = <A, E, R>(
  tx: TransactorShape,
  feed: ChangeFeedShape,
  write: Effect.Effect<readonly [A, Change], E, R>
): Effect.Effect<A, E | StorageError, R> =>
  tx.withTransaction(Effect.flatMap(write, ([value, change]) => Effect.as(tx.afterCommit(feed.publish(change)), value)))
