/**
 * A Server-Sent Events answer, as plain data every transport can write: the lane answers
 * `GET /v1/stream` with a `LaneResponse` whose `stream` is set; the transport sends the status
 * and headers, then hands the stream a sink over its response and detaches it when the client
 * goes away.
 */

/** Where one stream's bytes go (a node response, a web ReadableStream). */
export interface StreamSink {
  readonly write: (chunk: string) => void
  /** Ends the response; may be called after the client went away. */
  readonly end: () => void
}

/** A stream about to start: `start` once the headers are sent; call the function it returns when the client goes away. */
export interface StreamOpening {
  readonly start: (sink: StreamSink) => () => void
}

/** The headers of every stream: no caching, and no buffering by proxies (nginx reads X-Accel-Buffering). */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no"
}
