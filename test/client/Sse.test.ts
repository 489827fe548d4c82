/**
 * The SSE parser against the WHATWG event-stream rules, and against every way a transport may
 * split the same bytes into chunks.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { type SseEvent, SseParser } from "../../adapters/client/Sse.js"

const parse = (chunks: ReadonlyArray<string>) => {
  const events: Array<SseEvent> = []
  const comments: Array<string> = []
  const retries: Array<number> = []
  const parser = new SseParser({ event: (e) => events.push(e), comment: (c) => comments.push(c), retry: (ms) => retries.push(ms) })
  for (const chunk of chunks) parser.push(chunk)
  return { events, comments, retries }
}

const FLAGPORT_EVENT = 'id: W/"abc"\nevent: message\ndata: {"type":"refetchEvaluation","etag":"W/\\"abc\\"","lastModified":1700000000}\n\n'

describe("SseParser", () => {
  it("reads Flagport's notification and its ping", () => {
    const { events, comments } = parse([`: ping\n\n${FLAGPORT_EVENT}`])
    expect(comments).toEqual(["ping"])
    expect(events).toEqual([{ id: 'W/"abc"', event: "message", data: '{"type":"refetchEvaluation","etag":"W/\\"abc\\"","lastModified":1700000000}' }])
    expect(JSON.parse(events[0]!.data)).toMatchObject({ type: "refetchEvaluation", etag: 'W/"abc"' })
  })

  it("accepts CRLF, CR and LF line ends, even a CRLF split across chunks", () => {
    expect(parse(["data: a\r\n\r\ndata: b\r\rdata: c\n\n"]).events.map((e) => e.data)).toEqual(["a", "b", "c"])
    expect(parse(["data: a\r", "\n\r", "\ndata: b\r", "\r"]).events.map((e) => e.data)).toEqual(["a", "b"])
  })

  it("joins data lines, keeps the id across events, defaults the type to message", () => {
    const { events } = parse(["id: 1\ndata: x\ndata: y\n\nevent: other\ndata: z\n\ndata\n\n"])
    expect(events).toEqual([
      { id: "1", event: "message", data: "x\ny" },
      { id: "1", event: "other", data: "z" },
      { id: "1", event: "message", data: "" }
    ])
  })

  it("strips one leading space only, ignores unknown fields, ids with NUL and events without data", () => {
    const { events, retries } = parse(["data:  two\nfoo: bar\nid: a\u0000b\nretry: 2500\nretry: soon\n\nevent: x\n\n"])
    expect(events).toEqual([{ id: "", event: "message", data: " two" }])
    expect(retries).toEqual([2500])
  })

  it("drops a byte-order mark at the start and an unfinished event at the end", () => {
    expect(parse(["\uFEFFdata: a\n\ndata: unfinished\n"]).events.map((e) => e.data)).toEqual(["a"])
  })

  it.prop("any split of a stream into chunks yields the same events", [fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 8 })], ([cuts]) => {
    const text = `: ping\r\n\r\n${FLAGPORT_EVENT}${FLAGPORT_EVENT.replaceAll("\n", "\r\n")}${FLAGPORT_EVENT.replaceAll("\n", "\r")}`
    const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
    const chunks: Array<string> = []
    let last = 0
    for (const p of points) {
      chunks.push(text.slice(last, p))
      last = p
    }
    chunks.push(text.slice(last))
    const whole = parse([text])
    expect(whole.events).toHaveLength(3)
    expect(parse(chunks)).toEqual(whole)
  })
})
