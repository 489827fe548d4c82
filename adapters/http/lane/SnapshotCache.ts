/**
 * Compiled snapshots per (project, environment), labelled with the project's revision and kept
 * fresh by the change feed (`committed`), with a lazy revision check every `checkIntervalMs` as the
 * safety net (`discovered` tells the streams of what only the check found). Bounded whatever a
 * client sends. Each entry also holds `GET /v1/config`'s body, its gzip and its ETag.
 * Why and how: docs/guide/http.md, "Freshness: the change feed, with a revision poll as the safety net".
 */
import type { KeyListSource } from "../../../src/domain/evaluation/CompileSegments.js"
import type { ConfigSnapshot } from "../../../src/domain/evaluation/ConfigSnapshot.js"
import type { ClientConfig } from "../../../src/domain/definitions/Project.js"
import { ResourceNotFound } from "../../../src/domain/Errors.js"
import * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"
import { KEY_PATTERN, PROJECT_ID_PATTERN } from "../../../src/domain/definitions/Ids.js"
import { environmentNotFound, projectNotFound } from "../../../src/domain/NotFound.js"
import * as Instruments from "../../metrics/Instruments.js"
import { CompiledEntry, keyListsOf } from "./CompiledEntry.js"

export { CompiledEntry, etagOf } from "./CompiledEntry.js"

export interface SnapshotSource {
  readonly revision: (projectId: string) => Promise<number>
  /** The keys of the project's environments (rejects with ResourceNotFound for an unknown project). */
  readonly environments: (projectId: string) => Promise<ReadonlyArray<string>>
  readonly snapshot: (
    projectId: string,
    environment: string
  ) => Promise<{
    readonly revision: number
    readonly snapshot: ConfigSnapshot
    readonly clientConfig?: ClientConfig
    readonly keyLists?: KeyListSource
    /** Present when key lists the snapshot names are still loading: settles once they are loaded (or failed to). */
    readonly keyListsLoading?: () => Promise<void>
  }>
}

/** What the cache needs to know of a committed change (from the change feed's `ConfigChanged`). */
export interface CommittedChange {
  readonly projectId: string
  /** The project's revision once the change committed. */
  readonly revision: number
  /** The environments whose snapshot may differ, or "all". */
  readonly environments: ReadonlyArray<string> | "all"
  /** Whether the project's set of environments (or the project itself) may differ. */
  readonly environmentKeysMayDiffer: boolean
}

export interface SnapshotCacheOptions {
  readonly checkIntervalMs?: number
  readonly now?: () => number
  /** Projects kept (10,000); past it the oldest is dropped (and reloaded when asked again). */
  readonly maxProjects?: number
  /** Unknown project ids remembered for one interval (1,000); the set is cleared when full. */
  readonly maxUnknownProjects?: number
  /** Compiled environments kept per project (1,000); past it the oldest is dropped. */
  readonly maxEnvironmentsPerProject?: number
  /**
   * Called when a revision check finds a project newer than the cache knew it (a write no
   * announcement brought here), so the live streams hear of it as of any other change.
   */
  readonly discovered?: (projectId: string) => void
  /** Called when a snapshot held back while its key lists loaded replaces the one served meanwhile. */
  readonly swapped?: (projectId: string) => void
}

export const DEFAULT_CHECK_INTERVAL_MS = 250

interface EnvState {
  entry: CompiledEntry | undefined
  /** A failure (unknown environment) remembered for `revision`. */
  error: unknown
  errorRevision: number
  pending: Promise<CompiledEntry> | undefined
  /** The project revision `pending` was started for. */
  pendingRevision: number
  /** A newer snapshot waits for its key lists to load (`pending`): `entry` is served meanwhile. */
  listsLoading: boolean
}

interface ProjectState {
  readonly id: string
  revision: number
  error: unknown
  checkedAt: number
  /** Incremented by `invalidate()`. */
  generation: number
  /** The generation of the last check applied; behind `generation` = a write here not yet seen. */
  checkedGeneration: number
  pending: Promise<void> | undefined
  /** The generation at which `pending` started. */
  pendingGeneration: number
  /** The environment keys, read with the revision `envKeysRevision`. */
  envKeys: ReadonlySet<string> | undefined
  envKeysRevision: number
  readonly envs: Map<string, EnvState>
}

/** A check's answer: the revision, and the environment keys when they had to be read again. */
interface Checked {
  readonly revision: number
  readonly keys: ReadonlyArray<string> | undefined
}

interface UnknownProject {
  readonly error: unknown
  readonly until: number
}

const NO_REVISION = -1

/** Inserts into a Map used as a FIFO with a cap: the oldest key goes first. */
const insertCapped = <K, V>(map: Map<K, V>, key: K, value: V, max: number): void => {
  if (map.size >= max) {
    const oldest = map.keys().next()
    if (oldest.done !== true) map.delete(oldest.value)
  }
  map.set(key, value)
}

export class SnapshotCache {
  private readonly projects = new Map<string, ProjectState>()
  private readonly unknown = new Map<string, UnknownProject>()
  private readonly checkIntervalMs: number
  private readonly now: () => number
  private readonly maxProjects: number
  private readonly maxUnknownProjects: number
  private readonly maxEnvironmentsPerProject: number
  private readonly discovered: ((projectId: string) => void) | undefined
  private readonly swapped: ((projectId: string) => void) | undefined

  constructor(private readonly source: SnapshotSource, options: SnapshotCacheOptions = {}) {
    this.discovered = options.discovered
    this.swapped = options.swapped
    this.checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS
    this.now = options.now ?? Date.now
    this.maxProjects = Math.max(1, options.maxProjects ?? 10_000)
    this.maxUnknownProjects = Math.max(1, options.maxUnknownProjects ?? 1_000)
    this.maxEnvironmentsPerProject = Math.max(1, options.maxEnvironmentsPerProject ?? 1_000)
  }

  /** How many projects, unknown project ids and environment entries are held (for tests and metrics). */
  get size(): { readonly projects: number; readonly unknownProjects: number; readonly environments: number } {
    let environments = 0
    for (const project of this.projects.values()) environments += project.envs.size
    return { projects: this.projects.size, unknownProjects: this.unknown.size, environments }
  }

  /**
   * The compiled entry of (project, environment); synchronous in steady state. Rejects (or
   * throws) with the source's failure: ResourceNotFound for an unknown project or environment.
   */
  get(projectId: string, environment: string): CompiledEntry | Promise<CompiledEntry> {
    let project = this.projects.get(projectId)
    if (project === undefined) {
      const unknown = this.unknown.get(projectId)
      if (unknown !== undefined) {
        if (unknown.until > this.now()) throw unknown.error
        this.unknown.delete(projectId)
      }
      // No entry (and no load) for what cannot be a project id.
      if (!PROJECT_ID_PATTERN.test(projectId)) throw projectNotFound(projectId)
      project = {
        id: projectId,
        revision: NO_REVISION,
        error: undefined,
        checkedAt: Number.NEGATIVE_INFINITY,
        generation: 0,
        checkedGeneration: 0,
        pending: undefined,
        pendingGeneration: 0,
        envKeys: undefined,
        envKeysRevision: NO_REVISION,
        envs: new Map()
      }
      insertCapped(this.projects, projectId, project, this.maxProjects)
    }
    const p = project
    if (p.checkedGeneration !== p.generation) {
      // A write acknowledged here since the last check: wait for a check that started after it.
      return this.currentCheck(p).then(() => this.fromProject(p, environment))
    }
    if (p.pending === undefined && this.now() - p.checkedAt >= this.checkIntervalMs) {
      return this.check(p).then(() => this.fromProject(p, environment))
    }
    if (p.envKeys === undefined && p.pending !== undefined) {
      return p.pending.then(() => this.fromProject(p, environment))
    }
    return this.fromProject(p, environment)
  }

  /**
   * A change was committed (heard on the change feed): the next request for the project sees it,
   * with no revision read when the change directly follows the revision held.
   */
  committed(change: CommittedChange): void {
    const project = this.projects.get(change.projectId)
    if (project !== undefined && change.revision <= project.revision) return // already seen by a check or a load
    if (
      project === undefined ||
      change.environmentKeysMayDiffer ||
      project.error !== undefined ||
      project.envKeys === undefined ||
      project.revision === NO_REVISION ||
      change.revision !== project.revision + 1 ||
      project.envKeysRevision !== project.revision
    ) {
      this.invalidate(change.projectId)
      return
    }
    // Every change up to `change.revision` is known here: the environment keys are those held,
    // and an environment the change does not name serves what it served.
    const previous = project.revision
    project.revision = change.revision
    project.envKeysRevision = change.revision
    if (change.environments === "all") return
    for (const [name, env] of project.envs) {
      if (change.environments.includes(name)) continue
      if (env.entry !== undefined && env.entry.revision === previous) env.entry = env.entry.relabel(change.revision)
    }
  }

  /**
   * A write was committed: the next request for the project (and every one after it) waits for a
   * revision check that started after this call. Also forgets a remembered "unknown project"
   * (the project may just have been created).
   */
  invalidate(projectId: string): void {
    this.unknown.delete(projectId)
    const project = this.projects.get(projectId)
    if (project === undefined) return
    project.generation++
    project.checkedAt = Number.NEGATIVE_INFINITY
  }

  /** The in-flight check if it started at the current generation, else a new one. */
  private currentCheck(project: ProjectState): Promise<void> {
    if (project.pending !== undefined && project.pendingGeneration === project.generation) return project.pending
    return this.check(project)
  }

  private check(project: ProjectState): Promise<void> {
    const startedAt = this.now()
    const generation = project.generation
    const source = this.source
    const pending: Promise<void> = source
      .revision(project.id)
      .then((revision): Checked | Promise<Checked> =>
        project.envKeys !== undefined && project.envKeysRevision === revision
          ? { revision, keys: undefined }
          : source.environments(project.id).then((keys) => ({ revision, keys }))
      )
      .then(
        ({ keys, revision }) => {
          // Only the latest check applies its answer (a newer one may have started since).
          if (project.pending !== pending) return
          project.pending = undefined
          if (keys !== undefined) {
            project.envKeys = new Set(keys)
            project.envKeysRevision = revision
            for (const name of project.envs.keys()) if (!project.envKeys.has(name)) project.envs.delete(name)
          }
          const known = project.revision
          project.revision = Math.max(project.revision, revision)
          project.error = undefined
          if (project.generation === generation) {
            project.checkedAt = startedAt
            project.checkedGeneration = generation
          }
          // Last, so a listener reading the cache again finds the check applied.
          if (known !== NO_REVISION && revision > known) this.discovered?.(project.id)
        },
        (error: unknown) => {
          if (project.pending !== pending) return
          project.pending = undefined
          project.error = error
          project.revision = NO_REVISION
          project.envKeys = undefined
          project.envKeysRevision = NO_REVISION
          project.envs.clear()
          if (isNotFound(error) && project.generation === generation) {
            // An unknown project is remembered apart, for one interval, and holds no entry here.
            if (this.projects.get(project.id) === project) this.projects.delete(project.id)
            if (this.unknown.size >= this.maxUnknownProjects) this.unknown.clear()
            this.unknown.set(project.id, { error, until: startedAt + this.checkIntervalMs })
            project.checkedAt = startedAt
            project.checkedGeneration = generation
          } else {
            // Other failures are retried by the next request.
            project.checkedAt = Number.NEGATIVE_INFINITY
          }
        }
      )
    project.pending = pending
    project.pendingGeneration = generation
    return pending
  }

  private fromProject(project: ProjectState, environment: string): CompiledEntry | Promise<CompiledEntry> {
    if (project.error !== undefined) throw project.error
    let env = project.envs.get(environment)
    if (env === undefined) {
      if (project.envKeys === undefined) {
        // Only when an older check's answer was superseded: wait for the current one.
        return this.currentCheck(project).then(() => this.fromProject(project, environment))
      }
      // Only an environment the project has gets an entry: an unknown name is a 404 with no load.
      if (!KEY_PATTERN.test(environment) || !project.envKeys.has(environment)) throw environmentNotFound(project.id, environment)
      env = { entry: undefined, error: undefined, errorRevision: NO_REVISION, pending: undefined, pendingRevision: NO_REVISION, listsLoading: false }
      insertCapped(project.envs, environment, env, this.maxEnvironmentsPerProject)
    }
    if (env.entry !== undefined && env.entry.revision >= project.revision) return env.entry
    if (env.error !== undefined && env.errorRevision >= project.revision) throw env.error
    // A list of a million keys takes seconds to load: the previous snapshot answers until it is
    // (a change landing meanwhile is taken in by the load's end, when the snapshot is read again).
    if (env.listsLoading && env.entry !== undefined) return env.entry
    // A load started at an older revision may hold data from before a write: never hand it back.
    if (env.pending !== undefined && env.pendingRevision >= project.revision) return env.pending
    // One load per environment at a time: a request that needs a newer one than the load in flight
    // waits for it, then starts (or joins) the next. Writes landing during a load cost one more
    // load in all, not one each: under a stream of writes, loads would otherwise pile up and take
    // the event loop from the evaluations (bench/LOG.md, "SQLite under mixed load").
    if (env.pending !== undefined) {
      const again = () => this.fromProject(project, environment)
      return env.pending.then(again, again)
    }
    return this.build(project, env, environment)
  }

  private build(project: ProjectState, env: EnvState, environment: string): Promise<CompiledEntry> {
    const requested = project.revision
    const e = env
    const started = performance.now()
    const pending: Promise<CompiledEntry> = this.source.snapshot(project.id, environment).then(
      ({ clientConfig, keyLists, keyListsLoading, revision, snapshot }) => {
        if (keyListsLoading !== undefined) return this.awaitLists(project, e, environment, pending, keyListsLoading)
        // The source labels a snapshot with the revision it is at least as new as; never older than asked.
        // Each flag is compiled when first evaluated, the body of GET /v1/config made when first asked for:
        // a first read of an environment costs the read (bench/first-read.bench.ts).
        const entry = new CompiledEntry(Math.max(revision, requested), Evaluate.compileOnDemand(snapshot, keyLists), snapshot, clientConfig, keyLists, keyListsOf(snapshot))
        project.revision = Math.max(project.revision, revision)
        if (e.entry === undefined || e.entry.revision <= entry.revision) {
          e.entry = entry
          e.error = undefined
        }
        if (e.pending === pending) e.pending = undefined
        Instruments.snapshotReloads.ok.unsafeUpdate(1, [])
        Instruments.snapshotReloadSeconds.unsafeUpdate((performance.now() - started) / 1000, [])
        return entry
      },
      (error: unknown) => {
        if (e.pending === pending) e.pending = undefined
        Instruments.snapshotReloads.error.unsafeUpdate(1, [])
        if (isNotFound(error)) {
          e.error = error
          e.errorRevision = requested
        }
        throw error
      }
    )
    e.pending = pending
    e.pendingRevision = requested
    return pending
  }

  /**
   * The snapshot read names key lists still loading (in the background): the previous entry is
   * served until they are, then the snapshot is read again (now with them) and swapped in. With no
   * previous entry (the first load), there is nothing else to serve: the caller waits.
   */
  private awaitLists(project: ProjectState, e: EnvState, environment: string, read: Promise<CompiledEntry>, loading: () => Promise<void>) {
    const settle = () => {
      e.listsLoading = false
      if (e.pending === loaded) e.pending = undefined
    }
    const loaded: Promise<CompiledEntry> = loading().then(
      async () => {
        settle()
        const entry = await this.fromProject(project, environment)
        if (previous !== undefined) this.swapped?.(project.id)
        return entry
      },
      (error: unknown) => {
        settle()
        Instruments.snapshotReloads.error.unsafeUpdate(1, [])
        throw error
      }
    )
    const previous = e.entry
    if (e.pending === read) e.pending = loaded
    e.listsLoading = true
    if (previous === undefined) return loaded
    // Nobody waits for it: a failure only means the next request tries again.
    loaded.catch(() => undefined)
    return previous
  }
}

const isNotFound = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ResourceNotFound"
