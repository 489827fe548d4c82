/**
 * The shared hub's contract (adapters/http/shared/SseHub.ts), on which both kinds of stream stand
 * (change streams: StreamHub.test.ts; management events: EventsHub.test.ts), over a source the
 * test answers: one read per channel for all its streams, reads coalesced and never lost, a read
 * that finds more reading again, failures retried or, when the thing is gone, ending the streams;
 * one heartbeat for every stream; the tick's rechecks (each credential once, its streams ended when
 * refused, kept when the check fails); ending one credential's streams; closing; timers only while
 * streams are open.
 */
import { afterEach, describe, expect, it } from "vitest"
import { HEARTBEAT, type SseCredential, SseHub, type SseHubOptions, type SseJoin, type SseSource } from "../../adapters/http/shared/SseHub.js"

/** A source whose reads wait for the test: each read's channel, and how to answer or fail it. */
const source = () => {
  const reads: Array<{ readonly channel: string; readonly answer: (value: string) => void; readonly fail: (error: unknown) => void }> = []
  let more = false
  return {
    reads,
    setMore: (value: boolean) => void (more = value),
    source: {
      read: (channel) => new Promise<string>((resolve, reject) => reads.push({ channel: `${channel.topic}/${channel.name}`, answer: resolve, fail: reject })),
      // Every stream of the channel is sent what was read.
      deliver: (channel, found) => {
        for (const stream of channel.streams) stream.sink.write(found)
        return more
      },
      gone: (error) => error === "gone"
    } satisfies SseSource<null, null, string>
  }
}

type Hub = SseHub<null, null, string>
const hubs: Array<Hub> = []
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.closeAll()
})

const makeHub = (options: SseHubOptions<null, null, string>): Hub => {
  const hub = new SseHub(options)
  hubs.push(hub)
  return hub
}

const join: SseJoin<null, null> = { channel: () => null, stream: () => null, started: () => {} }

/** A stream on `hub`: what it was written, whether it ended, and how to leave. */
const open = (hub: Hub, topic: string, name: string, credential: SseCredential = { key: "k" }) => {
  const chunks: Array<string> = []
  const state = { ended: false }
  const detach = hub.open(topic, name, credential, join).start({ write: (chunk) => void chunks.push(chunk), end: () => void (state.ended = true) })
  return { chunks, state, detach }
}

const later = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms))
const quiet = { heartbeatMs: 60_000, tickMs: 60_000 }

describe("SseHub", () => {
  it("reads a channel once for all its streams; reads asked during one become one more; more waiting reads again", async () => {
    const s = source()
    const hub = makeHub({ source: s.source, logError: () => {}, ...quiet })
    const a = open(hub, "p", "dev")
    const b = open(hub, "p", "dev")
    const other = open(hub, "p", "prod")
    const [channel] = [...hub.channelsOf("p")]
    hub.read(channel!)
    hub.read(channel!)
    hub.read(channel!)
    expect(s.reads.map((r) => r.channel)).toEqual(["p/dev"])
    s.reads[0]!.answer("one")
    await later()
    expect(s.reads.map((r) => r.channel)).toEqual(["p/dev", "p/dev"])
    s.setMore(true)
    s.reads[1]!.answer("two")
    await later()
    expect(s.reads).toHaveLength(3) // the source said more was waiting
    s.setMore(false)
    s.reads[2]!.answer("three")
    await later()
    expect(s.reads).toHaveLength(3)
    expect(a.chunks).toEqual(["one", "two", "three"])
    expect(b.chunks).toEqual(["one", "two", "three"])
    expect(other.chunks).toEqual([])
  })

  it("retries a failed read after retryMs, logged; a read whose thing is gone ends the channel's streams", async () => {
    const s = source()
    const logged: Array<unknown> = []
    const hub = makeHub({ source: s.source, logError: (e) => logged.push(e), retryMs: 20, ...quiet })
    const a = open(hub, "p", "dev")
    const elsewhere = open(hub, "q", "dev")
    const channel = [...hub.channelsOf("p")][0]!
    hub.read(channel)
    s.reads[0]!.fail(new Error("database down"))
    await later()
    expect(logged).toHaveLength(1)
    expect(s.reads).toHaveLength(1)
    await later(40)
    expect(s.reads).toHaveLength(2)
    s.reads[1]!.fail("gone")
    await later()
    expect(a.state.ended).toBe(true)
    expect(elsewhere.state.ended).toBe(false)
    expect([...hub.channelsOf("p")]).toEqual([])
    expect(logged).toHaveLength(1)
  })

  it("without retryMs a failed read waits for the tick, which re-reads every channel", async () => {
    const s = source()
    const hub = makeHub({ source: s.source, logError: () => {}, heartbeatMs: 60_000, tickMs: 30 })
    open(hub, "p", "dev")
    open(hub, "q", "")
    hub.read([...hub.channelsOf("p")][0]!)
    s.reads[0]!.fail(new Error("once"))
    await later(10)
    expect(s.reads).toHaveLength(1)
    await later(40)
    expect(s.reads.map((r) => r.channel).slice(1).sort()).toEqual(["p/dev", "q/"])
  })

  it("the tick asks each credential once, ends the streams of one refused, keeps those of a failed check", async () => {
    const s = source()
    const logged: Array<unknown> = []
    const hub = makeHub({ source: s.source, logError: (e) => logged.push(e), heartbeatMs: 60_000, tickMs: 30 })
    let asked = 0
    let allowed = true
    const revocable: SseCredential = { key: "revocable", check: () => (asked++, Promise.resolve(allowed)) }
    const r1 = open(hub, "p", "dev", revocable)
    const r2 = open(hub, "q", "dev", revocable)
    const failing = open(hub, "p", "dev", { key: "failing", check: () => Promise.reject(new Error("store down")) })
    const throwing = open(hub, "p", "dev", { key: "throwing", check: () => { throw new Error("cache down") } })
    const unchecked = open(hub, "p", "dev", { key: "unchecked" })
    await later(45)
    expect(asked).toBe(1)
    expect(logged.map(String).sort()).toEqual(["Error: cache down", "Error: store down"])
    allowed = false
    await later(30)
    expect([r1.state.ended, r2.state.ended]).toEqual([true, true])
    expect([failing.state.ended, throwing.state.ended, unchecked.state.ended]).toEqual([false, false, false])
    expect(hub.size).toBe(3)
  })

  it("endCredential ends that credential's streams only, at once", () => {
    const hub = makeHub({ source: source().source, logError: () => {}, ...quiet })
    const a = open(hub, "p", "dev", { key: "a" })
    const b = open(hub, "p", "dev", { key: "b" })
    const a2 = open(hub, "q", "prod", { key: "a" })
    hub.endCredential("a")
    expect([a.state.ended, a2.state.ended, b.state.ended]).toEqual([true, true, false])
    expect(hub.size).toBe(1)
  })

  it("one heartbeat writes to every stream; its timers stop when the last stream leaves", async () => {
    const hub = makeHub({ source: source().source, logError: () => {}, heartbeatMs: 20, tickMs: 60_000 })
    const a = open(hub, "p", "dev")
    const b = open(hub, "q", "")
    await later(30)
    expect(a.chunks).toContain(HEARTBEAT)
    expect(b.chunks).toContain(HEARTBEAT)
    a.detach()
    b.detach()
    expect(hub.size).toBe(0)
    const before = [a.chunks.length, b.chunks.length]
    await later(50)
    expect([a.chunks.length, b.chunks.length]).toEqual(before)
    expect([...hub.allChannels()]).toEqual([])
  })

  it("a new stream joins: its channel and stream states are made, then it starts; closeAll ends every stream and refuses new ones", () => {
    const hub = new SseHub<{ readonly made: number }, { readonly nth: number }, string>({ source: { read: () => "", deliver: () => false }, logError: () => {}, ...quiet })
    let made = 0
    const started: Array<number> = []
    const joining: SseJoin<{ readonly made: number }, { readonly nth: number }> = {
      channel: () => ({ made: ++made }),
      stream: (channel) => ({ nth: channel.streams.size + 1 }),
      started: (stream) => void started.push(stream.state.nth)
    }
    const ends: Array<boolean> = []
    const start = (name: string) => hub.open("p", name, { key: "k" }, joining).start({ write: () => {}, end: () => void ends.push(true) })
    start("dev")
    start("dev")
    start("prod")
    expect([made, started]).toEqual([2, [1, 2, 1]])
    hub.closeAll()
    expect(ends).toHaveLength(3)
    expect(hub.isClosed).toBe(true)
    start("dev")
    expect(ends).toHaveLength(4) // refused: ended at once
    expect(hub.size).toBe(0)
  })
})
