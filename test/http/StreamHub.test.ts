/**
 * The stream hub's own rules, with a controllable configuration source (the server tests in
 * Stream.test.ts show the same behaviour end to end): changes during a read are coalesced into
 * one more read and the last one is never lost, a failed read is retried, a vanished environment
 * ends its streams, a change elsewhere reads nothing, and one event string serves every stream.
 */
import { describe, expect, it } from "@effect/vitest"
import type { ConfigChanged } from "../../src/ports/ChangeFeed.js"
import { ResourceNotFound } from "../../src/domain/Errors.js"
import { StreamHub, eventOf } from "../../adapters/http/lane/StreamHub.js"

const change = (environments: ReadonlyArray<string> | "all", projectId = "p1"): ConfigChanged => ({
  _tag: "ConfigChanged",
  projectId,
  revision: 0,
  environments,
  kind: "targeting",
  flagKeys: [],
  segmentKeys: []
})

/** A source whose reads wait until the test answers them. */
class Source {
  readonly reads: Array<{ readonly answer: (etag: string) => void; readonly fail: (error: unknown) => void }> = []
  current = () =>
    new Promise<{ etag: string }>((resolve, reject) => {
      this.reads.push({ answer: (etag) => resolve({ etag }), fail: reject })
    })
}

const sink = () => {
  const chunks: Array<string> = []
  let ended = false
  return {
    chunks,
    get ended() {
      return ended
    },
    sink: { write: (chunk: string) => void chunks.push(chunk), end: () => void (ended = true) }
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("StreamHub", () => {
  it("coalesces changes during a read into one more read, and sends the last configuration", async () => {
    const source = new Source()
    const hub = new StreamHub({ current: source.current, logError: () => {} })
    const a = sink()
    hub.open("k", "p1", "dev", "e0", undefined).start(a.sink)
    expect(a.chunks).toEqual([eventOf("e0", Math.floor(Date.now() / 1000))])
    hub.changed(change(["dev"]))
    hub.changed(change(["dev"]))
    hub.changed(change("all"))
    expect(source.reads).toHaveLength(1)
    source.reads[0]!.answer("e1")
    await tick()
    expect(source.reads).toHaveLength(2) // one more for the changes that came during the first
    source.reads[1]!.answer("e2")
    await tick()
    expect(source.reads).toHaveLength(2)
    expect(a.chunks.map((c) => /^id: (.*)$/m.exec(c)![1])).toEqual(["e0", "e1", "e2"])
    hub.closeAll()
  })

  it("reads nothing for another environment or project, and sends nothing when the ETag did not change", async () => {
    const source = new Source()
    const hub = new StreamHub({ current: source.current, logError: () => {} })
    const a = sink()
    hub.open("k", "p1", "dev", "e0", undefined).start(a.sink)
    hub.changed(change(["prod"]))
    hub.changed(change("all", "p2"))
    expect(source.reads).toHaveLength(0)
    hub.changed(change(["dev"]))
    source.reads[0]!.answer("e0")
    await tick()
    expect(a.chunks).toHaveLength(1)
    hub.closeAll()
  })

  it("writes the same event string to every stream, and skips a stream whose Last-Event-ID is current", async () => {
    const source = new Source()
    const hub = new StreamHub({ current: source.current, logError: () => {} })
    const streams = Array.from({ length: 3 }, () => sink())
    for (const s of streams) hub.open("k", "p1", "dev", "e0", "e0").start(s.sink)
    expect(streams.map((s) => s.chunks.length)).toEqual([0, 0, 0])
    hub.changed(change(["dev"]))
    source.reads[0]!.answer("e1")
    await tick()
    const [first, ...rest] = streams.map((s) => s.chunks[0])
    for (const chunk of rest) expect(chunk).toBe(first) // the very same string, serialized once
    hub.closeAll()
  })

  it("retries a failed read, and ends the streams of an environment that no longer exists", async () => {
    const source = new Source()
    const logged: Array<unknown> = []
    const hub = new StreamHub({ current: source.current, logError: (e) => logged.push(e), retryMs: 20 })
    const a = sink()
    hub.open("k", "p1", "dev", "e0", undefined).start(a.sink)
    hub.changed(change(["dev"]))
    source.reads[0]!.fail(new Error("database down"))
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(logged).toHaveLength(1)
    expect(source.reads).toHaveLength(2)
    source.reads[1]!.answer("e1")
    await tick()
    expect(a.chunks).toHaveLength(2)
    hub.changed(change(["dev"]))
    source.reads[2]!.fail(new ResourceNotFound({ message: "Environment 'dev' not found in project 'p1'" }))
    await tick()
    expect(a.ended).toBe(true)
    expect(hub.size).toBe(0)
  })

  it("one heartbeat for every stream; revocation ends only that key's streams; closeAll ends the rest and refuses new ones", async () => {
    const hub = new StreamHub({ current: () => ({ etag: "e0" }), logError: () => {}, heartbeatMs: 20 })
    const mine = sink()
    const theirs = sink()
    hub.open("revoked", "p1", "dev", "e0", "e0").start(mine.sink)
    hub.open("other", "p1", "prod", "e0", "e0").start(theirs.sink)
    await new Promise((resolve) => setTimeout(resolve, 70))
    expect(mine.chunks.length).toBeGreaterThanOrEqual(2)
    expect(new Set([...mine.chunks, ...theirs.chunks])).toEqual(new Set([": ping\n\n"]))
    hub.revoked("revoked")
    expect([mine.ended, theirs.ended]).toEqual([true, false])
    hub.closeAll()
    expect(theirs.ended).toBe(true)
    const late = sink()
    hub.open("other", "p1", "dev", "e0", undefined).start(late.sink)
    expect(late.ended).toBe(true)
    expect(late.chunks).toEqual([])
  })

  it("rechecks on its own clock: a credential no longer live ends its streams, a configuration nobody announced is sent", async () => {
    const live = new Set(["k1", "k2"])
    let etag = "e0"
    const hub = new StreamHub({
      current: () => ({ etag }),
      isLive: (credential) => Promise.resolve(live.has(credential)),
      logError: () => {},
      recheckMs: 20
    })
    const [a, b] = [sink(), sink()]
    hub.open("k1", "p1", "dev", "e0", "e0").start(a.sink)
    hub.open("k2", "p1", "dev", "e0", "e0").start(b.sink)
    live.delete("k1")
    etag = "e1" // written where no announcement reaches this hub
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(a.ended).toBe(true)
    expect(b.ended).toBe(false)
    expect(b.chunks.map((chunk) => chunk.split("\n")[0])).toEqual(["id: e1"])
    hub.closeAll()
  })
})
