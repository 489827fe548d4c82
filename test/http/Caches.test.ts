/**
 * The evaluation lane's caches under hostile or racy input: `SnapshotCache` stays bounded
 * whatever environment names and project ids arrive, a write acknowledged by this process is
 * served by the very next request (even with a revision check or a snapshot load in flight that
 * started before it), and project creation forgets a cached "not found". (The key cache: KeyCache.test.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import { type CompiledEntry, SnapshotCache, type SnapshotSource } from "../../adapters/http/lane/SnapshotCache.js"
import type { ConfigSnapshot } from "../../src/domain/evaluation/ConfigSnapshot.js"
import { ResourceNotFound } from "../../src/domain/Errors.js"
import { collectGarbage as collect } from "../testing/CollectGarbage.js"

/** One fake project database: a revision, environment keys and one string flag `f` per environment. */
class FakeSource implements SnapshotSource {
  revisionNumber = 1
  value = "old"
  readonly envs = new Set(["development"])
  readonly projects = new Set(["p1"])
  calls = { revision: 0, environments: 0, snapshot: 0 }
  /** When set, calls (or only snapshot loads) wait until `release()`. */
  hold: boolean | "snapshot" = false
  private held: Array<() => void> = []

  release(): void {
    const held = this.held
    this.held = []
    for (const go of held) go()
  }

  get heldCount(): number {
    return this.held.length
  }

  /** A write: new data, a new revision (as `Snapshots` would see it). */
  write(value: string): void {
    this.value = value
    this.revisionNumber++
  }

  private gate<A>(read: () => A, snapshot = false): Promise<A> {
    if (this.hold === false || (this.hold === "snapshot" && !snapshot)) return Promise.resolve().then(read)
    return new Promise<A>((resolve, reject) => {
      const value = (() => {
        try {
          return { ok: true as const, a: read() }
        } catch (error) {
          return { ok: false as const, error }
        }
      })()
      // The answer is taken now (the read happens before any later write) and delivered on release.
      this.held.push(() => (value.ok ? resolve(value.a) : reject(value.error)))
    })
  }

  private project(projectId: string): void {
    if (!this.projects.has(projectId)) throw new ResourceNotFound({ message: `Project '${projectId}' not found` })
  }

  revision = (projectId: string): Promise<number> => {
    this.calls.revision++
    return this.gate(() => {
      this.project(projectId)
      return this.revisionNumber
    })
  }

  environments = (projectId: string): Promise<ReadonlyArray<string>> => {
    this.calls.environments++
    return this.gate(() => {
      this.project(projectId)
      return [...this.envs]
    })
  }

  snapshot = (projectId: string, environment: string): Promise<{ revision: number; snapshot: ConfigSnapshot }> => {
    this.calls.snapshot++
    return this.gate(() => {
      this.project(projectId)
      if (!this.envs.has(environment)) throw new ResourceNotFound({ message: `Environment '${environment}' not found in project '${projectId}'` })
      const snapshot: ConfigSnapshot = {
        environment,
        flags: [
          {
            key: "f",
            type: "string",
            enabled: true,
            variations: [{ key: "v", value: this.value }],
            defaultVariationKey: "v",
            offVariationKey: "v",
            rules: []
          }
        ],
        segments: []
      }
      return { revision: this.revisionNumber, snapshot }
    }, true)
  }
}

const valueOf = (entry: CompiledEntry): unknown => (JSON.parse(entry.json.toString("utf8")) as ConfigSnapshot).flags[0].variations[0].value

/** Settles a `get` (sync or async) into the entry or the thrown error. */
const settle = async (run: () => CompiledEntry | Promise<CompiledEntry>): Promise<{ entry?: CompiledEntry; error?: unknown }> => {
  try {
    return { entry: await run() }
  } catch (error) {
    return { error }
  }
}

/** Lets every pending promise callback run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve))

const clock = () => {
  let t = 1_000_000
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe("SnapshotCache: bounded whatever the client sends", () => {
  it("20,000 distinct unknown environment names: no entry, no snapshot load, one environment-list read", async () => {
    const source = new FakeSource()
    const time = clock()
    const cache = new SnapshotCache(source, { now: time.now })
    expect(valueOf(await cache.get("p1", "development"))).toBe("old")
    const loadsBefore = { ...source.calls }
    for (let i = 0; i < 20_000; i++) {
      // Half valid-looking names, half names the key pattern refuses (long, spaces, unicode).
      const name = i % 2 === 0 ? `env-${i}` : `${"x".repeat(200)} ${i} é`
      const { error } = await settle(() => cache.get("p1", name))
      expect(error).toBeInstanceOf(ResourceNotFound)
      expect((error as ResourceNotFound).message).toBe(`Environment '${name}' not found in project 'p1'`)
      if (i % 5_000 === 0) time.advance(300) // revision checks keep happening meanwhile
    }
    expect(cache.size).toEqual({ projects: 1, unknownProjects: 0, environments: 1 })
    expect(source.calls.snapshot).toBe(loadsBefore.snapshot)
    expect(source.calls.environments).toBe(loadsBefore.environments) // the revision never changed
    expect(valueOf(await cache.get("p1", "development"))).toBe("old")
  })

  it("an environment created later is found once the revision moves; 404 answers are still not cached per name", async () => {
    const source = new FakeSource()
    const cache = new SnapshotCache(source)
    expect((await settle(() => cache.get("p1", "staging"))).error).toBeInstanceOf(ResourceNotFound)
    source.envs.add("staging")
    source.write("new")
    cache.invalidate("p1")
    expect(valueOf(await cache.get("p1", "staging"))).toBe("new")
    expect(cache.size.environments).toBe(1)
  })

  it("20,000 distinct unknown project ids keep both maps bounded", async () => {
    const source = new FakeSource()
    const cache = new SnapshotCache(source, { maxProjects: 100, maxUnknownProjects: 50 })
    for (let i = 0; i < 20_000; i++) {
      const id = i % 2 === 0 ? `project-${i}` : `Not A Project Id ${i}`
      const { error } = await settle(() => cache.get(id, "development"))
      expect((error as ResourceNotFound).message).toBe(`Project '${id}' not found`)
    }
    const size = cache.size
    expect(size.projects).toBeLessThanOrEqual(100)
    expect(size.unknownProjects).toBeLessThanOrEqual(50)
    expect(size.environments).toBe(0)
    // Ids the pattern refuses cost no read at all.
    expect(source.calls.revision).toBe(10_000)
  })

  it("the project map drops its oldest project past the cap (which is reloaded when asked again)", async () => {
    const source = new FakeSource()
    for (let i = 0; i < 10; i++) source.projects.add(`q${i}`)
    const cache = new SnapshotCache(source, { maxProjects: 3 })
    for (let i = 0; i < 10; i++) expect(valueOf(await cache.get(`q${i}`, "development"))).toBe("old")
    expect(cache.size.projects).toBe(3)
    expect(valueOf(await cache.get("q0", "development"))).toBe("old")
  })
})

describe("SnapshotCache: a write acknowledged here is served by the next request", () => {
  it("write, invalidate, get: the new value at once (no waiting for the interval)", async () => {
    const source = new FakeSource()
    const cache = new SnapshotCache(source, { checkIntervalMs: 60_000 })
    expect(valueOf(await cache.get("p1", "development"))).toBe("old")
    source.write("new")
    cache.invalidate("p1")
    expect(valueOf(await cache.get("p1", "development"))).toBe("new")
    // And every request after it, not only the first one.
    expect(valueOf(await cache.get("p1", "development"))).toBe("new")
  })

  it("a revision check that started before the write neither serves nor marks the project fresh", async () => {
    const source = new FakeSource()
    const time = clock()
    const cache = new SnapshotCache(source, { now: time.now })
    expect(valueOf(await cache.get("p1", "development"))).toBe("old")
    time.advance(300)
    source.hold = true
    const before = settle(() => cache.get("p1", "development")) // starts a check; it reads revision 1
    expect(source.heldCount).toBe(1)
    // Meanwhile a write is acknowledged by this process.
    source.hold = false
    source.write("new")
    cache.invalidate("p1")
    // A request right after the write: served the new value even while the old check is pending.
    const after = settle(() => cache.get("p1", "development"))
    const second = settle(() => cache.get("p1", "development"))
    expect(valueOf((await after).entry!)).toBe("new")
    expect(valueOf((await second).entry!)).toBe("new")
    // The old check answers last: it must not make the project look checked at revision 1.
    source.release()
    await before
    expect(valueOf((await settle(() => cache.get("p1", "development"))).entry!)).toBe("new")
  })

  it("a snapshot load that started before the write is not handed back after it", async () => {
    const source = new FakeSource()
    const time = clock()
    const cache = new SnapshotCache(source, { now: time.now })
    expect(valueOf(await cache.get("p1", "development"))).toBe("old")
    // Another process writes; the next check sees revision 2 and starts a load, which is held
    // with the data it read ("mid").
    source.write("mid")
    time.advance(300)
    source.hold = "snapshot"
    const first = settle(() => cache.get("p1", "development"))
    for (let i = 0; i < 20 && source.heldCount === 0; i++) await flush()
    expect(source.heldCount).toBe(1)
    // Then this process acknowledges a write.
    source.hold = false
    source.write("new")
    cache.invalidate("p1")
    // The request after the write waits for the load in flight (one load per environment at a
    // time), then gets a load of its own: never the data read before its write.
    const after = settle(() => cache.get("p1", "development"))
    await flush()
    source.release()
    expect(valueOf((await first).entry!)).toBe("mid")
    expect(valueOf((await after).entry!)).toBe("new")
    expect(valueOf((await settle(() => cache.get("p1", "development"))).entry!)).toBe("new")
  })

  it("a check started before the write cannot be joined by a request after it", async () => {
    const source = new FakeSource()
    const cache = new SnapshotCache(source)
    source.hold = true
    const first = settle(() => cache.get("p1", "development")) // first check (revision 1) held
    expect(source.heldCount).toBe(1)
    source.hold = false
    source.write("new")
    cache.invalidate("p1")
    const after = settle(() => cache.get("p1", "development"))
    expect(valueOf((await after).entry!)).toBe("new")
    source.release()
    await first
  })

  it("a cached 'project not found' is forgotten when the project is created here", async () => {
    const source = new FakeSource()
    const cache = new SnapshotCache(source, { checkIntervalMs: 60_000 })
    expect(((await settle(() => cache.get("p9", "development"))).error as ResourceNotFound).message).toBe("Project 'p9' not found")
    expect(cache.size.unknownProjects).toBe(1)
    source.projects.add("p9")
    source.write("new")
    // Still remembered (one interval) unless this process reports the creation.
    expect((await settle(() => cache.get("p9", "development"))).error).toBeInstanceOf(ResourceNotFound)
    cache.invalidate("p9")
    expect(valueOf(await cache.get("p9", "development"))).toBe("new")
  })
})

describe("SnapshotCache: a change heard on the feed", () => {
  const change = (revision: number, environments: ReadonlyArray<string> | "all", environmentKeysMayDiffer = false) => ({
    projectId: "p1",
    revision,
    environments,
    environmentKeysMayDiffer
  })

  it("right after the revision held: no revision or environment read; only the named environment is reloaded", async () => {
    const source = new FakeSource()
    source.envs.add("production")
    const time = clock()
    const cache = new SnapshotCache(source, { now: time.now, checkIntervalMs: 60_000 })
    await cache.get("p1", "development")
    const production = await cache.get("p1", "production")
    const before = { ...source.calls }
    source.write("new")
    cache.committed(change(source.revisionNumber, ["development"]))
    expect(valueOf(await cache.get("p1", "development"))).toBe("new")
    // production is relabelled, not reloaded: the same bytes and ETag (its fake data did change,
    // which proves no load happened).
    const kept = await cache.get("p1", "production")
    expect(kept.etag).toBe(production.etag)
    expect(valueOf(kept)).toBe("old")
    expect(kept.revision).toBe(source.revisionNumber)
    expect(source.calls).toEqual({ revision: before.revision, environments: before.environments, snapshot: before.snapshot + 1 })
  })

  it("writes landing during a load cost one more load in all, and every request gets data as new as its write", async () => {
    const source = new FakeSource()
    const time = clock()
    const cache = new SnapshotCache(source, { now: time.now, checkIntervalMs: 60_000 })
    await cache.get("p1", "development")
    source.hold = "snapshot"
    const waiting: Array<Promise<{ entry?: CompiledEntry; error?: unknown }>> = []
    // The first write starts a load (held); nine more land while it is in flight, each followed by a request.
    for (let i = 1; i <= 10; i++) {
      source.write(`v${i}`)
      cache.committed(change(source.revisionNumber, ["development"]))
      waiting.push(settle(() => cache.get("p1", "development")))
      await flush()
    }
    const loadsBefore = source.calls.snapshot
    expect(source.heldCount).toBe(1)
    source.release()
    await flush()
    // One more load, for every request waiting behind the first: not nine.
    expect(source.calls.snapshot).toBe(loadsBefore + 1)
    source.release()
    const answers = await Promise.all(waiting)
    expect(answers.map((a) => valueOf(a.entry!))).toEqual(["v1", ...Array<string>(9).fill("v10")])
  })

  it("a gap in revisions, or a change to the environments, falls back to a revision check", async () => {
    const source = new FakeSource()
    const time = clock()
    const cache = new SnapshotCache(source, { now: time.now, checkIntervalMs: 60_000 })
    await cache.get("p1", "development")
    source.write("skipped")
    source.write("gap")
    cache.committed(change(source.revisionNumber, "all"))
    expect(valueOf(await cache.get("p1", "development"))).toBe("gap")
    source.envs.add("staging")
    source.write("new environment")
    const before = { ...source.calls }
    cache.committed(change(source.revisionNumber, ["staging"], true))
    expect(valueOf(await cache.get("p1", "staging"))).toBe("new environment")
    expect(source.calls.revision).toBe(before.revision + 1)
    expect(source.calls.environments).toBe(before.environments + 1)
  })

  it("a change already seen by a check or a load changes nothing", async () => {
    const source = new FakeSource()
    const cache = new SnapshotCache(source, { now: clock().now, checkIntervalMs: 60_000 })
    await cache.get("p1", "development")
    const before = { ...source.calls }
    cache.committed(change(source.revisionNumber, "all"))
    expect(valueOf(await cache.get("p1", "development"))).toBe("old")
    expect(source.calls).toEqual(before)
  })
})

describe("SnapshotCache: a superseded version is released", () => {
  // Under a stream of writes (docs/operations/benchmarks.md, "SQLite under mixed load"), each write
  // makes a new compiled entry of the environment it changed and relabels the others. If an entry
  // kept the one before it (or the cache kept entries by revision), memory would grow with every
  // write; here, after 200 writes, only the entries being served may be alive.
  it("200 writes, each read as GET /v1/config reads it: only each environment's current entry stays reachable", async () => {
    const source = new FakeSource()
    source.envs.add("production")
    const cache = new SnapshotCache(source, { checkIntervalMs: 60_000 })
    const seen: Array<WeakRef<CompiledEntry>> = []
    const read = async (environment: string) => {
      const entry = await cache.get("p1", environment)
      // What GET /v1/config makes of an entry: its bytes, ETag, gzip and versions.
      expect(entry.gzip.length).toBeGreaterThan(0)
      expect(entry.etag).not.toBe("")
      expect(entry.versions.get("f")).toBeUndefined()
      seen.push(new WeakRef(entry))
    }
    await read("development")
    await read("production")
    /** How many of the entries handed out so far are still reachable. */
    const alive = async () => {
      await collect()
      return seen.filter((ref) => ref.deref() !== undefined).length
    }
    // 100 changes heard on the feed, each naming development: development is reloaded each time
    // and production relabelled each time (a chain of 100 relabels).
    for (let i = 0; i < 100; i++) {
      source.write(`value ${i}`)
      cache.committed({ projectId: "p1", revision: source.revisionNumber, environments: ["development"], environmentKeysMayDiffer: false })
      await read("development")
      await read("production")
    }
    // The two current entries (development's and production's); nothing of the 200 superseded ones.
    expect(await alive()).toBe(2)
    // Then 100 writes acknowledged here: both environments reloaded each time.
    for (let i = 100; i < 200; i++) {
      source.write(`value ${i}`)
      cache.invalidate("p1")
      await read("development")
      await read("production")
    }
    expect(seen).toHaveLength(402)
    expect(await alive()).toBe(2)
    expect(valueOf(await cache.get("p1", "development"))).toBe("value 199")
    expect(cache.size).toEqual({ projects: 1, unknownProjects: 0, environments: 2 })
  })
})
