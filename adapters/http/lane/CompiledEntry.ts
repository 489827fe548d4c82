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

export class CompiledEntry {
  private gzipped: Buffer | undefined
  constructor(
    readonly revision: number,
    readonly compiled: Evaluate.CompiledSnapshot,
    readonly json: Buffer,
    readonly etag: string,
    /** Each flag's version, by key (OFREP's `metadata.version`). */
    readonly versions: ReadonlyMap<string, number>,
    /** The environment's setting: with `evaluated`, client keys are refused `GET /v1/config`. */
    readonly clientConfig: ClientConfig = "full",
    /** The segments' key lists it was compiled with (what `GET /v1/config/segments/{s}/{list}` sends whole). */
    readonly keyLists: KeyListSource = () => undefined,
    /** The key lists the snapshot names (their versions and salts), by `segmentKey/list`. */
    readonly lists: ReadonlyMap<string, SnapshotKeyList> = new Map()
  ) {}
  /** The same content, known to be current at a newer revision (the bytes and ETag do not change). */
  relabel(revision: number): CompiledEntry {
    const entry = new CompiledEntry(revision, this.compiled, this.json, this.etag, this.versions, this.clientConfig, this.keyLists, this.lists)
    entry.gzipped = this.gzipped
    return entry
  }
  /** The gzip of `json`, compressed once per version. */
  get gzip(): Buffer {
    if (this.gzipped === undefined) this.gzipped = gzipSync(this.json)
    return this.gzipped
  }
}
