import { expect } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { SegmentKeyRepository } from "../../src/ports/SegmentKeyRepository.js"
import { SegmentKeys } from "../../src/services/segments/SegmentKeys.js"
import { Segments } from "../../src/services/segments/Segments.js"
import { type Contract, failureTag, givenProject, RawDump } from "./Backend.js"

const encoder = new TextEncoder()
/** A body as it streams in: the text cut into pieces of `size` characters (a key may straddle two). */
const body = (text: string, size = 4096) =>
  Stream.fromIterable(Array.from({ length: Math.ceil(text.length / size) }, (_, i) => encoder.encode(text.slice(i * size, (i + 1) * size))))
const lines = (keys: ReadonlyArray<string>) => body(keys.map((k) => `${k}\n`).join(""))
const keysOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`)

const givenSegment = Effect.gen(function* () {
  const projectId = yield* givenProject("development")
  yield* (yield* Segments).create(projectId, { key: "beta", name: "Beta", conditions: [] })
  return projectId
})

const readAll = (projectId: string, list: "included" | "excluded") =>
  Effect.flatMap(SegmentKeys, (keys) =>
    Effect.flatMap(keys.read(projectId, "beta", list), ({ info, keys: stream }) =>
      Effect.map(Stream.runCollect(stream), (chunk) => ({ info, keys: Chunk.toReadonlyArray(chunk) }))))

/** Segment key lists: replace from a streamed body, change a few, read back; all or nothing. */
export const segmentKeysContract: Contract = (it) => {
  it.effect("replace streams in 25,000 keys across staging chunks; read streams them back; each replace is one version", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const projectId = yield* givenSegment
      const first = keysOf("u", 25_000)
      const info = yield* keys.replace(projectId, "beta", "included", "lines", lines([...first, "u-1", ""]))
      expect(info).toMatchObject({ list: "included", version: 1, count: 25_000 })
      const read = yield* readAll(projectId, "included")
      expect(read.info).toEqual(info)
      expect(read.keys.length).toBe(25_000)
      expect(new Set(read.keys)).toEqual(new Set(first))
      const second = yield* keys.replace(projectId, "beta", "included", "lines", body("a\r\nb\r\n\r\nc"))
      expect(second).toMatchObject({ version: 2, count: 3 })
      expect([...(yield* readAll(projectId, "included")).keys].sort()).toEqual(["a", "b", "c"])
      // The replaced keys are dropped, not only hidden: after the answer, by short writes of their own.
      const dump = yield* RawDump
      let gone = false
      for (let waited = 0; !gone && waited < 20_000; waited += 50) {
        gone = !(yield* dump).includes("u-24999")
        if (!gone) yield* Effect.sleep("50 millis")
      }
      expect(gone).toBe(true)
      expect(yield* keys.lists(projectId, "beta")).toEqual({ included: second, excluded: { list: "excluded", version: 0, count: 0, updatedAt: null } })
    }))

  it.effect("CSV: the column named key, quotes and doubled quotes; else the first column", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const projectId = yield* givenSegment
      yield* keys.replace(projectId, "beta", "excluded", "csv", body("name,KEY\r\nAda,\"a,1\"\r\n\"Ed \"\"E\"\"\",\"b\"\"2\"\r\n", 3))
      expect([...(yield* readAll(projectId, "excluded")).keys].sort()).toEqual(["a,1", "b\"2"])
      yield* keys.replace(projectId, "beta", "excluded", "csv", body("id,name\nx,X\ny,Y"))
      expect([...(yield* readAll(projectId, "excluded")).keys].sort()).toEqual(["x", "y"])
    }))

  it.effect("a refused upload leaves the list as it was: a key too long after 15,000 good ones, bad CSV, a broken body", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const projectId = yield* givenSegment
      const before = yield* keys.replace(projectId, "beta", "included", "lines", lines(["kept"]))
      const tooLong = yield* Effect.flip(keys.replace(projectId, "beta", "included", "lines", lines([...keysOf("n", 15_000), "x".repeat(257)])))
      expect(tooLong).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "line 15001", message: "the key must be at most 256 characters" }] })
      const badCsv = yield* Effect.flip(keys.replace(projectId, "beta", "included", "csv", body("key\n\"open")))
      expect(badCsv).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "line 2", message: "a quoted field is not closed" }] })
      const broken = Stream.concat(lines(keysOf("m", 12_000)), Stream.fail({ _tag: "InvalidRequest" as const }))
      expect(yield* failureTag(keys.replace(projectId, "beta", "included", "lines", broken))).toBe("InvalidRequest")
      expect(yield* readAll(projectId, "included")).toEqual({ info: before, keys: ["kept"] })
    }))

  it.effect("change adds and removes (removal wins), one version each; too many keys a patch is a 400 that changes nothing", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const projectId = yield* givenSegment
      const first = yield* keys.change(projectId, "beta", "included", { add: ["a", "b", "c"] })
      expect(first).toMatchObject({ version: 1, count: 3 })
      const second = yield* keys.change(projectId, "beta", "included", { add: ["d", "a", "e"], remove: ["b", "e", "zz"] })
      expect(second).toMatchObject({ version: 2, count: 3 })
      expect([...(yield* readAll(projectId, "included")).keys].sort()).toEqual(["a", "c", "d"])
      const refused = yield* Effect.flip(keys.change(projectId, "beta", "included", { add: keysOf("k", 10_001), remove: [""] }))
      expect(refused).toMatchObject({ _tag: "InvalidRequest", details: [{ path: "add", message: "must have at most 10,000 keys" }, { path: "remove[0]", message: "must not be empty" }] })
      expect((yield* keys.lists(projectId, "beta")).included).toEqual(second)
    }))

  it.effect("the change log: each PATCH's keys actually added and removed by version, the latest 64 kept, cleared by a replace and by the segment's deletion", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const segments = yield* Segments
      const repository = yield* SegmentKeyRepository
      const projectId = yield* givenSegment
      const { id } = yield* segments.get(projectId, "beta")
      yield* keys.change(projectId, "beta", "included", { add: ["a", "b"] })
      yield* keys.change(projectId, "beta", "included", { add: ["a", "c", "d"], remove: ["b", "d", "zz"] })
      expect(yield* repository.changes(id, "included", 0)).toEqual([
        { version: 1, added: ["a", "b"], removed: [] },
        { version: 2, added: ["c"], removed: ["b"] }
      ])
      expect(yield* repository.changes(id, "included", 1)).toEqual([{ version: 2, added: ["c"], removed: ["b"] }])
      expect(yield* repository.changes(id, "excluded", 0)).toEqual([])
      for (let i = 0; i < 70; i++) yield* keys.change(projectId, "beta", "included", { add: [`n${i}`] })
      const kept = yield* repository.changes(id, "included", 0)
      expect(kept.map((c) => c.version)).toEqual(Array.from({ length: 64 }, (_, i) => 72 - 63 + i))
      yield* keys.replace(projectId, "beta", "included", "lines", lines(["x"]))
      expect(yield* repository.changes(id, "included", 0)).toEqual([])
      yield* keys.change(projectId, "beta", "included", { remove: ["x"] })
      expect(yield* repository.changes(id, "included", 73)).toEqual([{ version: 74, added: [], removed: ["x"] }])
      yield* segments.remove(projectId, "beta")
      expect(yield* repository.changes(id, "included", 0)).toEqual([])
    }))

  it.effect("404s; a deleted segment forgets its lists, and one made again under its key starts empty; writes are audited", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const segments = yield* Segments
      const projectId = yield* givenSegment
      expect(yield* failureTag(keys.replace(projectId, "nope", "included", "lines", lines(["a"])))).toBe("ResourceNotFound")
      expect(yield* failureTag(keys.change(projectId, "nope", "included", { add: ["a"] }))).toBe("ResourceNotFound")
      expect(yield* failureTag(keys.read("no-such-project", "beta", "included"))).toBe("ResourceNotFound")
      yield* keys.replace(projectId, "beta", "included", "lines", lines(["a", "b"]))
      yield* keys.change(projectId, "beta", "excluded", { add: ["c"] })
      const entries = yield* Effect.flatMap(AuditLog, (log) => log.list(projectId, {}, 100))
      expect(entries.map((row) => row.entry.action)).toEqual(expect.arrayContaining(["segment.keys.replaced", "segment.keys.changed"]))
      const replaced = entries.find((row) => row.entry.action === "segment.keys.replaced")!.entry
      expect(replaced).toMatchObject({ resource: { type: "segment", key: "beta" }, before: { version: 0, count: 0 }, after: { version: 1, count: 2 } })
      const old = yield* segments.get(projectId, "beta")
      yield* segments.remove(projectId, "beta")
      const repository = yield* SegmentKeyRepository
      expect(yield* repository.info(old.id, "included")).toMatchObject({ version: 0, count: 0 })
      expect(yield* repository.page(old.id, "included", null, 10)).toEqual([])
      yield* segments.create(projectId, { key: "beta", name: "Again", conditions: [] })
      expect((yield* keys.lists(projectId, "beta")).included.version).toBe(0)
    }))

  it.effect("a segment deleted while its upload streams in: 404, and the staged keys are dropped", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const segments = yield* Segments
      const repository = yield* SegmentKeyRepository
      const projectId = yield* givenSegment
      const old = yield* segments.get(projectId, "beta")
      const deleting = Stream.fromEffect(Effect.as(segments.remove(projectId, "beta"), encoder.encode("late\n")))
      const upload = Stream.concat(lines(keysOf("s", 11_000)), deleting)
      expect(yield* failureTag(keys.replace(projectId, "beta", "included", "lines", upload))).toBe("ResourceNotFound")
      expect(yield* repository.page(old.id, "included", null, 10)).toEqual([])
      expect(yield* (yield* RawDump)).not.toContain("s-10999")
    }))

  it.effect("sweep drops the keys nothing names that began before the cutoff (a deletion's keys never dropped, an abandoned upload); named lists and younger staging stay", () =>
    Effect.gen(function* () {
      const keys = yield* SegmentKeys
      const segments = yield* Segments
      const repository = yield* SegmentKeyRepository
      const projectId = yield* givenSegment
      yield* keys.replace(projectId, "beta", "included", "lines", lines(keysOf("kept", 50)))
      // A deletion whose process stopped before it dropped the keys: the lists forgotten, the keys left.
      const gone = yield* segments.create(projectId, { key: "gone", name: "Gone", conditions: [] })
      yield* keys.replace(projectId, "gone", "included", "lines", lines(keysOf("gone", 50)))
      yield* repository.forget(gone.id)
      // An upload abandoned long ago, and one still staging.
      const beta = yield* segments.get(projectId, "beta")
      const abandoned = yield* repository.begin(beta.id, "excluded", "2000-01-01T00:00:00.000Z")
      yield* repository.stage(abandoned, keysOf("abandoned", 50))
      const young = yield* repository.begin(beta.id, "excluded", "2100-01-01T00:00:00.000Z")
      yield* repository.stage(young, keysOf("young", 50))
      const dump = yield* RawDump
      // Where the dump shows stored keys (SQL; the memory store keeps a list's keys in its record,
      // which the deletion takes with it), the orphans are there before the sweep.
      const before = yield* dump
      if (before.includes("kept-49")) for (const key of ["gone-49", "abandoned-49"]) expect(before).toContain(key)
      expect(yield* repository.sweep("2050-01-01T00:00:00.000Z")).toBeGreaterThanOrEqual(1)
      const after = yield* dump
      for (const key of ["gone-49", "abandoned-49"]) expect(after).not.toContain(key)
      expect((yield* readAll(projectId, "included")).keys.length).toBe(50)
      expect(yield* repository.sweep("2050-01-01T00:00:00.000Z")).toBe(0)
      // The young generation was left to its upload: it can still be swapped in whole.
      yield* repository.swap(beta.id, "excluded", young, "2100-01-01T00:00:01.000Z")
      expect((yield* repository.page(beta.id, "excluded", null, 100)).length).toBe(50)
    }))
}
