/**
 * Compiled snapshots per (project, environment), kept fresh by the project's revision
 * (`Snapshots.revision`, one counter bumped by every write that can change a snapshot).
 *
 * Freshness: the revision of a project is re-read at most every `checkIntervalMs` (250 ms),
 * lazily, by the first request after the interval; that request waits for the answer, every
 * other request meanwhile is served from the cache. `checkedAt` is the time the read started,
 * so a write acknowledged at time T (by any process on the same database) is served by every
 * process from T + 250 ms + one revision read + one snapshot rebuild at the latest: well
 * inside the contract's 1 s. Writes through this process's API call `invalidate(projectId)`
 * and are served at once. In steady state a request touches no database.
 *
 * Each entry also holds what `GET /v1/config` sends: the JSON body serialized once per
 * version, its gzip (made on first demand, once per version) and its ETag.
 */
import { createHash } from "node:crypto"
import { gzipSync } from "node:zlib"
import type { ConfigSnapshot } from "../../src/domain/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/Evaluate.js"

export interface SnapshotSource {
  readonly revision: (projectId: string) => Promise<number>
  readonly snapshot: (projectId: string, environment: string) => Promise<{ readonly revision: number; readonly snapshot: ConfigSnapshot }>
}

export interface SnapshotCacheOptions {
  readonly checkIntervalMs?: number
  readonly now?: () => number
}

export const DEFAULT_CHECK_INTERVAL_MS = 250

export class CompiledEntry {
  private gzipped: Buffer | undefined
  constructor(
    readonly revision: number,
    readonly compiled: Evaluate.CompiledSnapshot,
    readonly json: Buffer,
    readonly etag: string
  ) {}
  /** The gzip of `json`, compressed once per version. */
  get gzip(): Buffer {
    if (this.gzipped === undefined) this.gzipped = gzipSync(this.json)
    return this.gzipped
  }
}

interface EnvState {
  entry: CompiledEntry | undefined
  /** A failure (unknown environment) remembered for `revision`. */
  error: unknown
  errorRevision: number
  pending: Promise<CompiledEntry> | undefined
}

interface ProjectState {
  readonly id: string
  revision: number
  error: unknown
  checkedAt: number
  pending: Promise<void> | undefined
  readonly envs: Map<string, EnvState>
}

const NO_REVISION = -1

export const etagOf = (json: Buffer): string => `W/"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"`

export class SnapshotCache {
  private readonly projects = new Map<string, ProjectState>()
  private readonly checkIntervalMs: number
  private readonly now: () => number

  constructor(private readonly source: SnapshotSource, options: SnapshotCacheOptions = {}) {
    this.checkIntervalMs = options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS
    this.now = options.now ?? Date.now
  }

  /**
   * The compiled entry of (project, environment); synchronous in steady state. Rejects (or
   * throws) with the source's failure: ResourceNotFound for an unknown project or environment.
   */
  get(projectId: string, environment: string): CompiledEntry | Promise<CompiledEntry> {
    let project = this.projects.get(projectId)
    if (project === undefined) {
      project = { id: projectId, revision: NO_REVISION, error: undefined, checkedAt: Number.NEGATIVE_INFINITY, pending: undefined, envs: new Map() }
      this.projects.set(projectId, project)
    }
    if (this.now() - project.checkedAt >= this.checkIntervalMs && project.pending === undefined) {
      const p = project
      return this.check(p).then(() => this.fromProject(p, environment))
    }
    if (project.revision === NO_REVISION && project.pending !== undefined) {
      const p = project
      return project.pending.then(() => this.fromProject(p, environment))
    }
    return this.fromProject(project, environment)
  }

  /** Forces a revision check on the next request for the project (a write happened here). */
  invalidate(projectId: string): void {
    const project = this.projects.get(projectId)
    if (project !== undefined) project.checkedAt = Number.NEGATIVE_INFINITY
  }

  private check(project: ProjectState): Promise<void> {
    const startedAt = this.now()
    project.pending = this.source.revision(project.id).then(
      (revision) => {
        project.revision = Math.max(project.revision, revision)
        project.error = undefined
        project.checkedAt = startedAt
        project.pending = undefined
      },
      (error: unknown) => {
        // An unknown project is remembered for one interval too; other failures are retried at once.
        project.error = error
        project.revision = NO_REVISION
        project.envs.clear()
        project.checkedAt = isNotFound(error) ? startedAt : Number.NEGATIVE_INFINITY
        project.pending = undefined
      }
    )
    return project.pending
  }

  private fromProject(project: ProjectState, environment: string): CompiledEntry | Promise<CompiledEntry> {
    if (project.error !== undefined) throw project.error
    let env = project.envs.get(environment)
    if (env === undefined) {
      env = { entry: undefined, error: undefined, errorRevision: NO_REVISION, pending: undefined }
      project.envs.set(environment, env)
    }
    if (env.entry !== undefined && env.entry.revision >= project.revision) return env.entry
    if (env.error !== undefined && env.errorRevision >= project.revision) throw env.error
    if (env.pending !== undefined) return env.pending
    return this.build(project, env, environment)
  }

  private build(project: ProjectState, env: EnvState, environment: string): Promise<CompiledEntry> {
    const requested = project.revision
    const e = env
    e.pending = this.source.snapshot(project.id, environment).then(
      ({ revision, snapshot }) => {
        const json = Buffer.from(JSON.stringify(snapshot))
        // The source labels a snapshot with the revision it is at least as new as; never older than asked.
        const entry = new CompiledEntry(Math.max(revision, requested), Evaluate.compile(snapshot), json, etagOf(json))
        project.revision = Math.max(project.revision, revision)
        e.entry = entry
        e.error = undefined
        e.pending = undefined
        return entry
      },
      (error: unknown) => {
        e.pending = undefined
        if (isNotFound(error)) {
          e.error = error
          e.errorRevision = requested
        }
        throw error
      }
    )
    return e.pending
  }
}

const isNotFound = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ResourceNotFound"
