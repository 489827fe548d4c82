/**
 * The key lists of a project file, as the command line handles them (docs/guide/flags-as-code.md,
 * "Key lists"): each list a file beside the project file (FileKeyLists.ts). `apply` reads each
 * file as a stream (never a million keys at once: a digest of them, FileKeyLists.ts), compares it
 * with the stored list, and replaces the lists that differ after the rest of the file is applied;
 * `export --out` writes each non-empty list beside the file it writes.
 *
 * The same steps against the database (`local`: the use cases of SegmentKeys.ts) and against a
 * running server (`remote`: GET/PUT /v1/projects/{p}/segments/{s}/keys/{list}).
 */
import { createReadStream, createWriteStream, realpathSync } from "node:fs"
import { dirname, extname, isAbsolute, relative, resolve } from "node:path"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import * as Chunk from "effect/Chunk"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { ListReference } from "../../src/domain/ascode/FileKeyLists.js"
import { EMPTY_DIGEST, KeyListDigest, type ListDigest } from "../../src/domain/evaluation/KeyListDigest.js"
import { type KeyListFormat, KeyListReader, KeyListTextError } from "../../src/domain/definitions/KeyListText.js"
import type { KeyListInfo, KeyListName, KeyLists } from "../../src/domain/definitions/SegmentKeys.js"
import type { Problem } from "../../src/domain/Errors.js"
import { SegmentKeys } from "../../src/services/segments/SegmentKeys.js"

/** A list's file, read and checked: where it is, and its digest. */
export interface ListFile extends ListReference {
  /** The file's absolute path; undefined for a list the segment's `keys` leaves out (to be empty). */
  readonly absolute: string | undefined
  readonly format: KeyListFormat
  readonly digest: ListDigest
}

/** A list whose stored keys differ from its file's: what apply replaces. */
export interface ListChange {
  readonly file: ListFile
  /** The stored list's count (0 for a segment the file creates). */
  readonly before: number
}

/** A step on the store's lists failed (the message says which and why). */
export class ListStepFailed extends Data.TaggedError("ListStepFailed")<{ readonly message: string }> {}

const formatOf = (path: string): KeyListFormat => (extname(path).toLowerCase() === ".csv" ? "csv" : "lines")

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Reads and checks every list file the project file names (resolved against `baseDir`, the
 * project file's folder), all of them, each as a stream: the problems of all (a missing file, a bad
 * line, more keys than a list may hold), with their paths in the project file, or their digests.
 */
export const readListFiles = (references: ReadonlyArray<ListReference>, baseDir: string) =>
  Effect.gen(function* () {
    const files: Array<ListFile> = []
    const problems: Array<Problem> = []
    for (const reference of references) {
      const where = `segments[${reference.segmentIndex}].keys${reference.path === "" ? "" : `.${reference.list}`}`
      if (reference.path === "") {
        files.push({ ...reference, absolute: undefined, format: "lines", digest: EMPTY_DIGEST })
        continue
      }
      const absolute = resolve(baseDir, reference.path)
      const outside = outsideOf(baseDir, reference.path, absolute)
      if (outside !== null) {
        problems.push({ path: where, message: `${reference.path}: ${outside}` })
        continue
      }
      const format = formatOf(reference.path)
      const read = yield* Effect.either(digestOfFile(absolute, format))
      if (read._tag === "Left") problems.push({ path: where, message: `${reference.path}: ${read.left}` })
      else files.push({ ...reference, absolute, format, digest: read.right })
    }
    return { files, problems }
  })

/**
 * Why a list path may not be read, or null. A list file lies in the project file's folder or below
 * it: whoever may edit the project file must not make apply read any file of the machine running it
 * (a CI runner's credentials) into a segment's keys, which client keys can fetch. Symbolic links
 * are followed before the check, so a link inside cannot point outside.
 */
const outsideOf = (baseDir: string, path: string, absolute: string): string | null => {
  if (isAbsolute(path)) return "must be a path relative to the project file's folder, not an absolute one"
  const inside = (root: string, target: string) => {
    const rel = relative(root, target)
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)
  }
  if (!inside(baseDir, absolute)) return "must lie inside the project file's folder"
  const real = (p: string) => {
    try {
      return realpathSync(p)
    } catch {
      return undefined
    }
  }
  const [realBase, realTarget] = [real(baseDir), real(absolute)]
  // A missing file is reported by the read, as "no such file".
  if (realBase !== undefined && realTarget !== undefined && !inside(realBase, realTarget)) return "must lie inside the project file's folder (it links outside it)"
  return null
}

/** The digest of one list file, read as a stream; fails with what is wrong (`line 12: ...`, a missing file). */
const digestOfFile = (absolute: string, format: KeyListFormat): Effect.Effect<ListDigest, string> =>
  Effect.tryPromise({
    try: async () => {
      const reader = new KeyListReader(format)
      const digest = new KeyListDigest()
      for await (const text of createReadStream(absolute, { encoding: "utf8", highWaterMark: 256 * 1024 })) {
        digest.add(reader.push(text as string))
      }
      digest.add(reader.end())
      return digest.result()
    },
    catch: (error) =>
      error instanceof KeyListTextError
        ? `${error.problem.path}: ${error.problem.message}`
        : typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT"
        ? "no such file"
        : `cannot be read: ${messageOf(error)}`
  })

/** The folder a project file's list paths are relative to: its own (`-`, standard input: the current one). */
export const baseDirOf = (projectFile: string): string => (projectFile === "-" ? process.cwd() : dirname(resolve(projectFile)))

/** What a command needs of the lists where they are stored: the database, or a running server. */
export interface ListStore {
  /** Both lists' versions and counts; undefined when the segment does not exist (yet). */
  readonly lists: (segmentKey: string) => Effect.Effect<KeyLists | undefined, ListStepFailed>
  /** The digest of the stored list, read as a stream. */
  readonly digest: (segmentKey: string, list: KeyListName) => Effect.Effect<ListDigest, ListStepFailed>
  /** Replaces the stored list by the file's keys (none for `undefined`), streamed. */
  readonly replace: (segmentKey: string, list: KeyListName, file: ListFile) => Effect.Effect<KeyListInfo, ListStepFailed>
  /** Writes the stored list to `path`, one key a line, in the list's order. */
  readonly download: (segmentKey: string, list: KeyListName, path: string) => Effect.Effect<void, ListStepFailed>
}

/** The lists whose stored keys differ from their files (counts first: a stored list is read only when its count is the file's). */
export const listChanges = (files: ReadonlyArray<ListFile>, store: ListStore) =>
  Effect.gen(function* () {
    const changes: Array<ListChange> = []
    const stored = new Map<string, KeyLists | undefined>()
    for (const file of files) {
      if (!stored.has(file.segmentKey)) stored.set(file.segmentKey, yield* store.lists(file.segmentKey))
      const before = stored.get(file.segmentKey)?.[file.list].count ?? 0
      if (before !== file.digest.count) {
        changes.push({ file, before })
        continue
      }
      if (before === 0) continue
      const digest = yield* store.digest(file.segmentKey, file.list)
      if (digest.count !== file.digest.count || digest.digest !== file.digest.digest) changes.push({ file, before })
    }
    return changes
  })

const fail = (what: string) => (error: unknown) => new ListStepFailed({ message: `${what}: ${typeof error === "object" && error !== null && "message" in error ? String(error.message) : String(error)}` })

const fileBody = (file: ListFile): Stream.Stream<Uint8Array, ListStepFailed> =>
  file.absolute === undefined
    ? Stream.empty
    : Stream.fromAsyncIterable(createReadStream(file.absolute, { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>, fail(`cannot read ${file.path}`))

/** The lists in the database, through the use cases (as the HTTP routes call them). */
export const localStore = (projectId: string) =>
  Effect.map(SegmentKeys, (keys): ListStore => ({
    lists: (segmentKey) =>
      keys.lists(projectId, segmentKey).pipe(
        Effect.catchTag("ResourceNotFound", () => Effect.succeed(undefined)),
        Effect.mapError(fail(`cannot read the key lists of segment ${segmentKey}`))
      ),
    digest: (segmentKey, list) =>
      Effect.gen(function* () {
        const { keys: stream } = yield* keys.read(projectId, segmentKey, list)
        const digest = new KeyListDigest()
        yield* Stream.runForEachChunk(stream, (chunk) => Effect.sync(() => digest.add(Chunk.toReadonlyArray(chunk))))
        return digest.result()
      }).pipe(Effect.mapError(fail(`cannot read the ${list} list of segment ${segmentKey}`))),
    replace: (segmentKey, list, file) =>
      keys.replace(projectId, segmentKey, list, file.format, fileBody(file)).pipe(Effect.mapError(fail(`the ${list} list of segment ${segmentKey} was not replaced`))),
    download: (segmentKey, list, path) =>
      Effect.gen(function* () {
        const { keys: stream } = yield* keys.read(projectId, segmentKey, list)
        const lines = Stream.map(stream, (key) => `${key}\n`).pipe(Stream.grouped(10_000), Stream.map((chunk) => Chunk.join(chunk, "")))
        yield* Effect.tryPromise({ try: () => pipeline(Readable.from(Stream.toAsyncIterable(lines)), createWriteStream(path)), catch: (e) => e })
      }).pipe(Effect.mapError(fail(`cannot write ${path}`)))
  }))

/** The lists on a running server, through its routes (a key that may write the project). */
export const remoteStore = (url: string, key: string, projectId: string): ListStore => {
  const base = `${url.replace(/\/+$/, "")}/v1/projects/${encodeURIComponent(projectId)}/segments`
  const at = (segmentKey: string, list?: KeyListName) => `${base}/${encodeURIComponent(segmentKey)}/keys${list === undefined ? "" : `/${list}`}`
  const headers = { authorization: `Bearer ${key}` }
  const refused = async (what: string, response: Response) => {
    const text = await response.text()
    let message = `${response.status}`
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } }
      if (typeof body.error?.message === "string") message = `${response.status}: ${body.error.message}`
    } catch {
      // not the envelope: the status says it
    }
    return new Error(`${what}: the server refused: ${message}`)
  }
  const call = <A>(what: string, run: (signal: AbortSignal) => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: (error) => new ListStepFailed({ message: error instanceof Error ? error.message : `${what}: ${String(error)}` }) })
  return {
    lists: (segmentKey) =>
      call(`cannot read the key lists of segment ${segmentKey}`, async (signal) => {
        const response = await fetch(at(segmentKey), { headers, signal })
        if (response.status === 404) return undefined
        if (!response.ok) throw await refused(`cannot read the key lists of segment ${segmentKey}`, response)
        return (await response.json()) as KeyLists
      }),
    digest: (segmentKey, list) =>
      call(`cannot read the ${list} list of segment ${segmentKey}`, async (signal) => {
        const response = await fetch(at(segmentKey, list), { headers, signal })
        if (!response.ok || response.body === null) throw await refused(`cannot read the ${list} list of segment ${segmentKey}`, response)
        const reader = new KeyListReader("lines")
        const digest = new KeyListDigest()
        const decoder = new TextDecoder()
        for await (const bytes of Readable.fromWeb(response.body as never) as AsyncIterable<Uint8Array>) digest.add(reader.push(decoder.decode(bytes, { stream: true })))
        digest.add(reader.push(decoder.decode()))
        digest.add(reader.end())
        return digest.result()
      }),
    replace: (segmentKey, list, file) =>
      call(`the ${list} list of segment ${segmentKey} was not replaced`, async (signal) => {
        const body = file.absolute === undefined ? "" : (Readable.toWeb(createReadStream(file.absolute, { highWaterMark: 64 * 1024 })) as ReadableStream<Uint8Array>)
        const response = await fetch(at(segmentKey, list), {
          method: "PUT",
          headers: { ...headers, "content-type": file.format === "csv" ? "text/csv" : "text/plain" },
          body,
          signal,
          // A streamed request body (the list is never read whole into memory).
          ...(typeof body === "string" ? {} : { duplex: "half" })
        } as RequestInit)
        if (!response.ok) throw await refused(`the ${list} list of segment ${segmentKey} was not replaced`, response)
        return (await response.json()) as KeyListInfo
      }),
    download: (segmentKey, list, path) =>
      call(`cannot write ${path}`, async (signal) => {
        const response = await fetch(at(segmentKey, list), { headers, signal })
        if (!response.ok || response.body === null) throw await refused(`cannot read the ${list} list of segment ${segmentKey}`, response)
        await pipeline(Readable.fromWeb(response.body as never), createWriteStream(path))
      })
  }
}
