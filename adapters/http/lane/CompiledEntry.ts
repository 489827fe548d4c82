/** One compiled snapshot as the evaluation routes serve it: the evaluator, `GET /v1/config`'s body, its gzip and its ETag. */
import { createHash } from "node:crypto"
import { gzipSync } from "node:zlib"
import type { ClientConfig } from "../../../src/domain/definitions/Project.js"
import type { KeyListSource } from "../../../src/domain/evaluation/CompileSegments.js"
import type { ConfigSnapshot, SnapshotKeyList } from "../../../src/domain/evaluation/ConfigSnapshot.js"
import type * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"

export const etagOf = (json: Buffer): string => `W/"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"`

export const versionsOf = (snapshot: ConfigSnapshot): ReadonlyMap<string, number> => {
  const versions = new Map<string, number>()
  for (const flag of snapshot.flags) if (flag.version !== undefined && !versions.has(flag.key)) versions.set(flag.key, flag.version)
  return versions
}

/** The key lists the snapshot names, by `segmentKey/list`. */
export const keyListsOf = (snapshot: ConfigSnapshot): ReadonlyMap<string, SnapshotKeyList> => {
  const lists = new Map<string, SnapshotKeyList>()
  for (const segment of snapshot.segments) {
    for (const list of ["included", "excluded"] as const) {
      const named = segment[list]
      if (named !== undefined && !lists.has(`${segment.key}/${list}`)) lists.set(`${segment.key}/${list}`, named)
    }
  }
  return lists
}

/**
 * What `GET /v1/config` serves of a snapshot (its bytes, their ETag and gzip) and each flag's
 * version, made from the snapshot on first use and shared by an entry's relabelled copies: a first
 * read of an environment then costs no serialisation until something asks for it.
 */
class Content {
  private snapshot: ConfigSnapshot | undefined
  private body: Buffer | undefined
  private tag: string | undefined
  private byKey: ReadonlyMap<string, number> | undefined
  gzipped: Buffer | undefined
  constructor(snapshot: ConfigSnapshot) {
    this.snapshot = snapshot
  }
  get json(): Buffer {
    if (this.body === undefined) {
      this.body = Buffer.from(JSON.stringify(this.snapshot))
      this.release()
    }
    return this.body
  }
  get etag(): string {
    this.tag ??= etagOf(this.json)
    return this.tag
  }
  get versions(): ReadonlyMap<string, number> {
    if (this.byKey === undefined) {
      this.byKey = versionsOf(this.snapshot!)
      this.release()
    }
    return this.byKey
  }
  /** The snapshot is dropped once everything made from it is made. */
  private release() {
    if (this.body !== undefined && this.byKey !== undefined) this.snapshot = undefined
  }
}

export class CompiledEntry {
  private readonly content: Content
  constructor(
    readonly revision: number,
    readonly compiled: Evaluate.CompiledSnapshot,
    /** The snapshot compiled (never changed afterwards): `json`, `etag` and `versions` are made from it on first use. */
    snapshot: ConfigSnapshot | Content,
    /** The environment's setting: with `evaluated`, client keys are refused `GET /v1/config`. */
    readonly clientConfig: ClientConfig = "full",
    /** The segments' key lists it was compiled with (what `GET /v1/config/segments/{s}/{list}` sends whole). */
    readonly keyLists: KeyListSource = () => undefined,
    /** The key lists the snapshot names (their versions and salts), by `segmentKey/list`. */
    readonly lists: ReadonlyMap<string, SnapshotKeyList> = new Map()
  ) {
    this.content = snapshot instanceof Content ? snapshot : new Content(snapshot)
  }
  /** `GET /v1/config`'s body: the snapshot as JSON. */
  get json(): Buffer {
    return this.content.json
  }
  /** The ETag of `json`. */
  get etag(): string {
    return this.content.etag
  }
  /** Each flag's version, by key (OFREP's `metadata.version`). */
  get versions(): ReadonlyMap<string, number> {
    return this.content.versions
  }
  /** The same content, known to be current at a newer revision (the bytes and ETag do not change). */
  relabel(revision: number): CompiledEntry {
    return new CompiledEntry(revision, this.compiled, this.content, this.clientConfig, this.keyLists, this.lists)
  }
  /** The gzip of `json`, compressed once per version. */
  get gzip(): Buffer {
    this.content.gzipped ??= gzipSync(this.json)
    return this.content.gzipped
  }
}
