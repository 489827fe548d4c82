/**
 * The change feed of a serving process on a SQLite file: this process's changes reach its
 * listeners at once (the in-process fan-out), and other processes' writes to the same file (a
 * second server, a host embedding Flagport, the CLI) are noticed by watching the file.
 *
 * SQLite has no notifications between processes, but `PRAGMA data_version` changes on a
 * connection whenever another connection has committed (and costs no table read). It is asked
 * every `pollMs` (100 ms) on the reader connection; when it moved, one scan reads every project's
 * revision and the revoked keys, and what differs from what this feed last knew is delivered
 * locally: a `ConfigChanged` for a project whose revision grew (widened to every environment and
 * kind "project", since the scan cannot tell what changed; the caches reload and the streams
 * compare ETags, so only a real change sends an event) and an `ApiKeyRevoked` per newly revoked
 * key. This process's own writes move the reader's data_version too; the feed learns their
 * revisions from its own `publish`, so a scan after them finds nothing to deliver (one that races
 * a publish may deliver a change twice, which every listener takes as no news).
 *
 * A scan reads all projects and all revoked keys: cheap for what one SQLite file holds, and run
 * only after another process's commit. A failing poll is logged and tried again.
 *
 * At start it warns when another process has the file open (FileHolders.ts), since several
 * server processes on one SQLite file work but are not what SQLite is for.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { type Change, ChangeFeed } from "../../src/ports/ChangeFeed.js"
import { StorageError } from "../../src/ports/StorageError.js"
import { makeFanOut } from "../change-feed/InProcessChangeFeed.js"
import * as Migrations from "../sql/Migrations.js"
import { otherHolders } from "./FileHolders.js"

export const DEFAULT_POLL_MS = 100

export interface Options {
  /** The database file (for the start-up warning). */
  readonly filename: string
  /** How often `PRAGMA data_version` is asked (100 ms). */
  readonly pollMs?: number
}

const DataVersion = Schema.Array(Schema.Struct({ data_version: Schema.Number }))
const Revisions = Schema.Array(Schema.Struct({ id: Schema.String, revision: Schema.Number }))
const RevokedKeys = Schema.Array(Schema.Struct({ id: Schema.String, project_id: Schema.NullOr(Schema.String) }))

/** The warning for the processes found holding the file. */
export const sharedFileWarning = (filename: string, holders: ReadonlyArray<{ readonly pid: number; readonly command: string }>) =>
  `Another process (${holders.map((h) => `pid ${h.pid}${h.command === "" ? "" : `: ${h.command}`}`).join("; ")}) has the SQLite database ` +
  `'${filename}' open. Server processes sharing one SQLite file take turns for every write and see each other's changes ` +
  "by polling the file; for several server processes use PostgreSQL (DATABASE_URL=postgres://...)."

export const make = (options: Options) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const local = makeFanOut()

    const holders = otherHolders(options.filename)
    if (holders.length > 0) yield* Effect.logWarning(sharedFileWarning(options.filename, holders))

    const dataVersion = Effect.map(Effect.flatMap(sql`PRAGMA data_version`, Schema.decodeUnknown(DataVersion)), (rows) => rows[0]?.data_version ?? 0)
    const readRevisions = Effect.flatMap(sql`SELECT id, revision FROM flagport_projects`, Schema.decodeUnknown(Revisions))
    const readRevoked = Effect.flatMap(
      sql`SELECT id, project_id FROM flagport_api_keys WHERE revoked_at IS NOT NULL`,
      Schema.decodeUnknown(RevokedKeys)
    )

    // What this feed knows: taken now, then kept up by scans and by this process's own publishes.
    let version = yield* dataVersion
    const revisions = new Map((yield* readRevisions).map((row) => [row.id, row.revision] as const))
    const revoked = new Set((yield* readRevoked).map((row) => row.id))

    const learn = (change: Change) => {
      if (change._tag === "ApiKeyRevoked") revoked.add(change.keyId)
      else revisions.set(change.projectId, Math.max(revisions.get(change.projectId) ?? 0, change.revision))
    }

    const scan = Effect.gen(function* () {
      const [projects, keys] = yield* Effect.all([readRevisions, readRevoked])
      const changes: Array<Change> = []
      for (const { id, revision } of projects) {
        if (revision <= (revisions.get(id) ?? 0)) continue
        changes.push({ _tag: "ConfigChanged", projectId: id, revision, environments: "all", kind: "project", flagKeys: [], segmentKeys: [] })
      }
      for (const key of keys) if (!revoked.has(key.id)) changes.push({ _tag: "ApiKeyRevoked", keyId: key.id, projectId: key.project_id })
      for (const change of changes) {
        learn(change)
        yield* local.deliver(change)
      }
    })

    const poll = Effect.gen(function* () {
      const now = yield* dataVersion
      if (now === version) return
      yield* scan
      version = now // only once scanned: a failed scan is tried again at the next poll
    })

    yield* poll.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("Watching the SQLite file for other processes' writes failed; trying again", cause)),
      Effect.repeat(Schedule.spaced(Duration.millis(options.pollMs ?? DEFAULT_POLL_MS))),
      Effect.forkScoped
    )

    const publish = (change: Change) => Effect.zipRight(Effect.sync(() => learn(change)), local.deliver(change))
    return ChangeFeed.of({ publish, subscribe: local.subscribe })
  })

/**
 * The feed over the SqlClient, after the migrations (its first scan reads the tables they make);
 * it watches the file for as long as the layer lives.
 */
export const layer = (options: Options): Layer.Layer<ChangeFeed, StorageError, SqlClient> =>
  Layer.scoped(
    ChangeFeed,
    Effect.mapError(make(options), (cause) => new StorageError({ message: "Cannot read the SQLite database to watch it for other processes' writes", cause }))
  ).pipe(Layer.provide(Migrations.layer))
