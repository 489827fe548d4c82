import * as Context from "effect/Context"
import { DEFAULT_KEY_ATTRIBUTE } from "../../domain/definitions/Segment.js"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { ConfigSnapshot, SnapshotKeyList } from "../../domain/evaluation/ConfigSnapshot.js"
import type { ClientConfig } from "../../domain/definitions/Project.js"
import { ResourceNotFound } from "../../domain/Errors.js"
import { EnvironmentRepository } from "../../ports/EnvironmentRepository.js"
import { FlagRepository } from "../../ports/FlagRepository.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"
import { SegmentRepository } from "../../ports/SegmentRepository.js"
import type { KeyListName, KeyListSource } from "../../domain/evaluation/CompileSegments.js"
import { measuredRulesOf } from "../../domain/experiments/MeasuredRule.js"
import { makeRunningMeasures } from "../experiments/RunningMeasures.js"
import * as KeyListCache from "./KeyListCache.js"
import type { NamedList } from "./KeyListCache.js"
import * as KeyListChanges from "./KeyListChanges.js"
import type { StorageError } from "../../ports/StorageError.js"
import { environmentNotFound, projectNotFound } from "../../domain/NotFound.js"

export interface SnapshotsShape {
  /**
   * The project's snapshot revision: one counter bumped by every write that can change any of
   * its snapshots (flags, targeting, segments, environments). Cheap: one indexed read. 404.
   */
  readonly revision: (projectId: string) => Effect.Effect<number, ResourceNotFound | StorageError>
  /**
   * Everything an in-process evaluator needs to evaluate one environment (`GET /v1/config`), with the revision it
   * reflects, the environment's `clientConfig` (whether client keys may read it), and the keys of
   * the segments' lists for the compiler (KeyListCache.ts). Never waits for a list to load: when
   * some the snapshot names are not held at their version yet, `keyListsLoading` completes once
   * they are (loaded in the background); until then `keyLists` lacks them. 404 for an unknown
   * project or environment.
   */
  readonly snapshot: (
    projectId: string,
    environmentKey: string
  ) => Effect.Effect<
    {
      readonly revision: number
      readonly snapshot: ConfigSnapshot
      readonly clientConfig: ClientConfig
      readonly keyLists: KeyListSource
      readonly keyListsLoading: Effect.Effect<void, StorageError> | undefined
    },
    ResourceNotFound | StorageError
  >
  /**
   * The change of a segment's list from version `since` to `to` as hashes, for a holder of the list
   * hashed under `salt` (KeyListChanges.ts); undefined when the whole list must be read instead.
   */
  readonly keyListChange: (
    projectId: string,
    segmentKey: string,
    list: KeyListName,
    salt: string,
    since: number,
    to: number
  ) => Effect.Effect<KeyListChanges.HashedChange | undefined, StorageError>
}

export class Snapshots extends Context.Tag("@flagport/services/Snapshots")<Snapshots, SnapshotsShape>() {}

/** Attempts to read a snapshot between two equal revisions before settling for the older label. */
const MAX_ATTEMPTS = 3

export const make = Effect.gen(function* () {
  const projects = yield* ProjectRepository
  const environments = yield* EnvironmentRepository
  const flags = yield* FlagRepository
  const segments = yield* SegmentRepository
  const measured = yield* makeRunningMeasures
  const keyListRepository = yield* SegmentKeyRepository
  const keySets = yield* KeyListCache.make
  const changes = yield* KeyListChanges.make

  const revision = Effect.fn("Snapshots.revision")(function* (projectId: string) {
    const found = yield* projects.revision(projectId)
    if (Option.isNone(found)) return yield* projectNotFound(projectId)
    return found.value
  })

  const read = (projectId: string, environmentKey: string) =>
    Effect.gen(function* () {
      const before = yield* revision(projectId)
      // Independent reads, issued together (one round trip's wait instead of three); they must
      // all start after `before` and end before `after` for the check below to hold.
      const [environment, snapshotFlags, segmentList, running] = yield* Effect.all(
        [
          environments.get(projectId, environmentKey),
          flags.snapshotFlags(projectId, environmentKey),
          segments.list(projectId),
          measured(projectId, environmentKey)
        ],
        { concurrency: "unbounded" }
      )
      if (Option.isNone(environment)) return yield* environmentNotFound(projectId, environmentKey)
      const written = yield* keyListRepository.written(segmentList.map((s) => s.id))
      // In one order (included, then excluded), so equal data is equal bytes (and ETags) on every process.
      const listsOf = (segmentId: string) => {
        const out: { included?: SnapshotKeyList; excluded?: SnapshotKeyList } = {}
        for (const list of ["included", "excluded"] as const) {
          const found = written.find((w) => w.segmentId === segmentId && w.info.list === list)
          if (found !== undefined) out[list] = { version: found.info.version, count: found.info.count, salt: KeyListChanges.saltOf(segmentId, list) }
        }
        return out
      }
      const named: Array<NamedList> = segmentList.flatMap((s) =>
        written.filter((w) => w.segmentId === s.id).map(({ info }) => ({ segmentId: s.id, segmentKey: s.key, list: info.list, version: info.version, count: info.count })))
      const snapshot: ConfigSnapshot = {
        environment: environmentKey,
        flags: snapshotFlags,
        segments: segmentList.map((s) => ({
          key: s.key,
          conditions: s.conditions,
          ...listsOf(s.id),
          // Only when it matters (a list is named) and is not the context key: other configurations keep their bytes.
          ...(s.keyAttribute === DEFAULT_KEY_ATTRIBUTE || written.every((w) => w.segmentId !== s.id) ? {} : { keyAttribute: s.keyAttribute })
        })),
        // Only which rules are measured (what an SDK needs to send exposures), and only when some are.
        ...(running.length === 0 ? {} : { experiments: measuredRulesOf(running) })
      }
      const after = yield* revision(projectId)
      return { before, after, snapshot, named, clientConfig: environment.value.clientConfig }
    })

  /**
   * Every write bumps the revision in its own transaction, so equal revisions before and after
   * the reads prove no write committed in between: a consistent snapshot on any isolation level.
   * If writes keep landing, the data is at least as new as `before`; labelling it `before` only
   * makes a client fetch once more.
   */
  const snapshot = Effect.fn("Snapshots.snapshot")(function* (projectId: string, environmentKey: string) {
    for (let attempt = 1; ; attempt++) {
      const { after, before, clientConfig, named, snapshot } = yield* read(projectId, environmentKey)
      if (before === after || attempt >= MAX_ATTEMPTS) {
        const { loading, source } = yield* keySets.sourceOf(named)
        return { revision: before, snapshot, clientConfig, keyLists: source, keyListsLoading: loading }
      }
    }
  })

  const keyListChange = Effect.fn("Snapshots.keyListChange")(function* (
    projectId: string,
    segmentKey: string,
    list: KeyListName,
    salt: string,
    since: number,
    to: number
  ) {
    return yield* changes.forHolder(projectId, segmentKey, list, salt, since, to)
  })

  return Snapshots.of({ revision, snapshot, keyListChange })
})

export const layer = Layer.effect(Snapshots, make)
