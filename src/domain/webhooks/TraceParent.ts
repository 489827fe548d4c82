/**
 * W3C Trace Context's `traceparent` (`00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`): read
 * where a request or a stored webhook event names the span it came from. Version `ff` and all-zero
 * ids are invalid, as the specification says; later versions are read by their first four fields.
 */
export interface TraceParent {
  readonly traceId: string
  readonly spanId: string
  readonly sampled: boolean
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/
const ZERO_TRACE = "0".repeat(32)
const ZERO_SPAN = "0".repeat(16)

/** The span a `traceparent` names, or undefined when it is malformed. */
export const parseTraceParent = (header: string): TraceParent | undefined => {
  const match = TRACEPARENT.exec(header.trim())
  if (match === null || match[1] === "ff" || match[2] === ZERO_TRACE || match[3] === ZERO_SPAN) return undefined
  return { traceId: match[2]!, spanId: match[3]!, sampled: (parseInt(match[4]!, 16) & 1) === 1 }
}

/** The `traceparent` (version 00) naming a span. */
export const formatTraceParent = (span: TraceParent): string => `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
