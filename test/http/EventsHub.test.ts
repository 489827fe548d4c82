/**
 * The management events hub (adapters/http/api/events/EventsHub.ts) over a log the test controls: late
 * commits (a lower position that appears after a higher one) are still delivered and nothing is
 * sent twice; the re-read window moves on once entries settle; a stream resuming from further back
 * gets what it missed while the others get nothing again; credentials that may no longer read end
 * their streams, asked per project; shutdown ends every stream and refuses new ones.
 */
import { describe, expect, it } from "vitest"
import type { ManagementEvent } from "../../src/domain/audit/ManagementEvent.js"
import { EventsHub, type PositionedEvent, type StreamCredential } from "../../adapters/http/api/events/EventsHub.js"

const SETTLE_MS = 10_000

const eventAt = (position: number, at: number): PositionedEvent => ({
  position,
  at: new Date(at).toISOString(),
  event: {
    id: String(position),
    kind: "flag.updated",
    resource: { type: "flag", key: `f${position}` },
    flagKeys: [`f${position}`],
    environments: [],
    version: 1,
    configVersions: {},
    actor: { type: "cli" },
    at: new Date(at).toISOString()
  } satisfies ManagementEvent
})

/** A log of committed entries, the reads the hub made (their `after`), and a clock. */
const world = () => {
  const committed: Array<PositionedEvent> = []
  const reads: Array<number> = []
  let now = 1_000_000
  const hub = new EventsHub({
    read: async (_projectId, after) => {
      reads.push(after)
      return committed.filter((e) => e.position > after).sort((a, b) => a.position - b.position)
    },
    logError: (cause) => {
      throw cause
    },
    batch: 100,
    pollMs: 60_000,
    heartbeatMs: 60_000,
    settleMs: SETTLE_MS,
    now: () => now
  })
  return {
    hub,
    reads,
    commit: (position: number, at = now) => committed.push(eventAt(position, at)),
    advance: (ms: number) => (now += ms),
    now: () => now
  }
}

/** A stream opened on `hub`: the ids of the change events it got, and whether it ended. */
const stream = (hub: EventsHub, start: number, credential: StreamCredential = { key: "k", check: async () => true }, projectId = "p") => {
  const ids: Array<string> = []
  const state = { ended: false, ready: "" }
  hub.open(projectId, start, credential).start({
    write: (chunk) => {
      const id = /(?:^|\n)id: (\S+)\nevent: (\w+)/.exec(chunk)
      if (id?.[2] === "change") ids.push(id[1]!)
      if (id?.[2] === "ready") state.ready = id[1]!
    },
    end: () => void (state.ended = true)
  })
  return { ids, state }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("EventsHub", () => {
  it("delivers a late commit (lower position, seen later) once, and nothing twice", async () => {
    const w = world()
    const s = stream(w.hub, 3)
    expect(s.state.ready).toBe("3")
    await settle()
    w.commit(5)
    w.hub.changed("p")
    await settle()
    expect(s.ids).toEqual(["5"])
    // Position 4 was appended before 5 but committed after it.
    w.commit(4)
    w.hub.changed("p")
    await settle()
    w.hub.changed("p")
    await settle()
    expect(s.ids).toEqual(["5", "4"])
  })

  it("re-reads only the unsettled window: the floor moves past entries older than the settle time", async () => {
    const w = world()
    stream(w.hub, 0)
    await settle()
    w.commit(1)
    w.commit(2)
    w.hub.changed("p")
    await settle()
    expect(w.reads.at(-1)).toBe(0)
    w.advance(SETTLE_MS + 1)
    w.commit(3)
    w.hub.changed("p")
    await settle()
    // 1 and 2 are settled now: the next read starts after them; 3 is still re-read.
    w.hub.changed("p")
    await settle()
    expect(w.reads.at(-1)).toBe(2)
  })

  it("a stream resuming from further back gets what it missed; the others get nothing again", async () => {
    const w = world()
    for (const position of [1, 2, 3]) w.commit(position, w.now() - 2 * SETTLE_MS)
    const first = stream(w.hub, 3)
    await settle()
    w.commit(4)
    w.hub.changed("p")
    await settle()
    expect(first.ids).toEqual(["4"])
    const resumed = stream(w.hub, 1)
    await settle()
    expect(resumed.ids).toEqual(["2", "3", "4"])
    w.commit(5)
    w.hub.changed("p")
    await settle()
    expect(first.ids).toEqual(["4", "5"])
    expect(resumed.ids).toEqual(["2", "3", "4", "5"])
  })

  it("ends the streams of credentials that may no longer read, keeps the others; shutdown ends all and refuses new ones", async () => {
    const w = world()
    let allowed = true
    const revocable = stream(w.hub, 0, { key: "revocable", check: async () => allowed })
    const other = stream(w.hub, 0, { key: "other", check: async () => true })
    expect(w.hub.size).toBe(2)
    w.hub.recheck()
    await settle()
    expect([revocable.state.ended, other.state.ended]).toEqual([false, false])
    allowed = false
    w.hub.recheck()
    await settle()
    expect([revocable.state.ended, other.state.ended]).toEqual([true, false])
    expect(w.hub.size).toBe(1)
    w.hub.closeAll()
    expect(other.state.ended).toBe(true)
    expect(stream(w.hub, 0).state.ended).toBe(true)
    expect(w.hub.size).toBe(0)
  })

  it("asks the same credentials once per project: leaving one project ends only its streams", async () => {
    const w = world()
    const member = new Set(["p1", "p2"])
    const credential = (projectId: string): StreamCredential => ({ key: "session:s", check: async () => member.has(projectId) })
    const second = stream(w.hub, 0, credential("p2"), "p2")
    const first = stream(w.hub, 0, credential("p1"), "p1")
    const again = stream(w.hub, 0, credential("p1"), "p1")
    member.delete("p1")
    w.hub.recheck()
    await settle()
    expect([first.state.ended, again.state.ended, second.state.ended]).toEqual([true, true, false])
    member.delete("p2")
    w.hub.recheck()
    await settle()
    expect(second.state.ended).toBe(true)
  })
})
