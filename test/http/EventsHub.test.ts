/**
 * The management events hub (adapters/http/api/events/EventsHub.ts) over a log the test controls
 * (positions in commit order, as ports/AuditLog.ts promises): a channel reads on from the last
 * position it read; a stream resuming from further back gets what it missed, in order, even when
 * it joins during a read, while the others get nothing again; credentials that may no longer read
 * end their streams, asked per project; shutdown ends every stream and refuses new ones.
 */
import { describe, expect, it } from "vitest"
import type { ManagementEvent } from "../../src/domain/audit/ManagementEvent.js"
import { EventsHub, type PositionedEvent, type StreamCredential } from "../../adapters/http/api/events/EventsHub.js"

const eventAt = (position: number): PositionedEvent => ({
  position,
  event: {
    id: String(position),
    kind: "flag.updated",
    resource: { type: "flag", key: `f${position}` },
    flagKeys: [`f${position}`],
    environments: [],
    version: 1,
    configVersions: {},
    actor: { type: "cli" },
    at: new Date(1_000_000 + position).toISOString()
  } satisfies ManagementEvent
})

/** A log of committed entries and the reads the hub made (their `after`); `hold` keeps reads pending until `release`. */
const world = () => {
  const committed: Array<PositionedEvent> = []
  const reads: Array<number> = []
  let held: Array<() => void> | undefined
  const hub = new EventsHub({
    read: async (_projectId, after) => {
      reads.push(after)
      const found = committed.filter((e) => e.position > after)
      if (held !== undefined) await new Promise<void>((resolve) => held!.push(resolve))
      return found
    },
    logError: (cause) => {
      throw cause
    },
    batch: 100,
    pollMs: 60_000,
    heartbeatMs: 60_000
  })
  return {
    hub,
    reads,
    commit: (position: number) => committed.push(eventAt(position)),
    hold: () => void (held = []),
    release: () => {
      const waiting = held ?? []
      held = undefined
      for (const resolve of waiting) resolve()
    }
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
  it("reads on from the last position it read", async () => {
    const w = world()
    const s = stream(w.hub, 3)
    expect(s.state.ready).toBe("3")
    await settle()
    w.commit(5)
    w.commit(6)
    w.hub.changed("p")
    await settle()
    expect(s.ids).toEqual(["5", "6"])
    w.commit(7)
    w.hub.changed("p")
    await settle()
    expect(w.reads).toEqual([3, 3, 6])
    expect(s.ids).toEqual(["5", "6", "7"])
  })

  it("a stream resuming from further back gets what it missed; the others get nothing again", async () => {
    const w = world()
    for (const position of [1, 2, 3]) w.commit(position)
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

  it("a stream resuming from further back while a read runs gets every event in order", async () => {
    const w = world()
    for (const position of [1, 2, 3]) w.commit(position)
    const first = stream(w.hub, 3)
    await settle()
    w.commit(4)
    w.hold()
    w.hub.changed("p")
    await settle()
    // The read after 3 is under way when a client resumes after 1.
    const resumed = stream(w.hub, 1)
    w.release()
    await settle()
    await settle()
    expect(first.ids).toEqual(["4"])
    expect(resumed.ids).toEqual(["2", "3", "4"])
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
