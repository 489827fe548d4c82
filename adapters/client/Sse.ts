/**
 * An incremental parser of Server-Sent Events (the WHATWG HTML "event stream interpretation"),
 * fed with decoded text chunks as they arrive. Written here instead of using `EventSource`,
 * which cannot send an Authorization header and does not exist on Node 20 or most edge
 * runtimes.
 *
 * Lines end with CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the
 * next are one line end); a line starting with `:` is a comment (Flagport's `: ping`); a blank
 * line dispatches the event. `id` persists across events, as the specification says; an event
 * without data is not dispatched; an unfinished event at the end of the stream is dropped.
 */
export interface SseEvent {
  /** The last event id seen (the `id:` field persists until changed). */
  readonly id: string
  /** `event:` field, `message` by default. */
  readonly event: string
  readonly data: string
}

export interface SseHandlers {
  readonly event: (event: SseEvent) => void
  /** A `retry:` field: the server's reconnection time in milliseconds. */
  readonly retry?: (ms: number) => void
  /** A comment line (without the colon), e.g. the server's ping. */
  readonly comment?: (text: string) => void
}

export class SseParser {
  private pending = ""
  private skipLineFeed = false
  private first = true
  private data = ""
  private hasData = false
  private eventType = ""
  private lastId = ""

  constructor(private readonly handlers: SseHandlers) {}

  /** Feeds the next chunk of text. */
  push(chunk: string): void {
    let text = this.pending + chunk
    if (this.first && text.length > 0) {
      this.first = false
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    let start = 0
    if (this.skipLineFeed && text.length > 0) {
      this.skipLineFeed = false
      if (text.charCodeAt(0) === 10) start = 1
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c !== 10 && c !== 13) continue
      this.line(text.slice(start, i))
      if (c === 13) {
        if (i + 1 === text.length) this.skipLineFeed = true
        else if (text.charCodeAt(i + 1) === 10) i++
      }
      start = i + 1
    }
    this.pending = text.slice(start)
  }

  private line(line: string): void {
    if (line.length === 0) return this.dispatch()
    const colon = line.indexOf(":")
    if (colon === 0) {
      this.handlers.comment?.(line.slice(1).replace(/^ /, ""))
      return
    }
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? "" : line.slice(colon + 1)
    if (value.charCodeAt(0) === 32) value = value.slice(1)
    switch (field) {
      case "event":
        this.eventType = value
        return
      case "data":
        this.data = this.hasData ? `${this.data}\n${value}` : value
        this.hasData = true
        return
      case "id":
        if (!value.includes("\u0000")) this.lastId = value
        return
      case "retry":
        if (/^[0-9]+$/.test(value)) this.handlers.retry?.(Number(value))
        return
      default:
        return // unknown fields are ignored
    }
  }

  private dispatch(): void {
    const event = { id: this.lastId, event: this.eventType === "" ? "message" : this.eventType, data: this.data }
    const dispatch = this.hasData
    this.data = ""
    this.hasData = false
    this.eventType = ""
    if (dispatch) this.handlers.event(event)
  }
}
