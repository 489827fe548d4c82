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

const ZERO_TRACE = "0".repeat(32)
const ZERO_SPAN = "0".repeat(16)
const DASH = 45

/** Lowercase hex only, as the specification writes the fields. */
const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 102)
const allHex = (s: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (!isHex(s.charCodeAt(i))) return false
  return true
}

/**
 * The span a `traceparent` names, or undefined when it is malformed: `vv-<32>-<16>-ff` in lowercase
 * hex, then the end or a `-` (a later version's further fields). Read by hand rather than by a
 * regular expression: the evaluation lane reads one per traced request (LaneTracing.ts).
 */
export const parseTraceParent = (header: string): TraceParent | undefined => {
  const s = header.trim()
  if (s.length < 55 || (s.length > 55 && s.charCodeAt(55) !== DASH)) return undefined
  if (s.charCodeAt(2) !== DASH || s.charCodeAt(35) !== DASH || s.charCodeAt(52) !== DASH) return undefined
  if (!allHex(s, 0, 2) || !allHex(s, 3, 35) || !allHex(s, 36, 52) || !allHex(s, 53, 55) || s.startsWith("ff")) return undefined
  const traceId = s.slice(3, 35)
  const spanId = s.slice(36, 52)
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined
  const flags = s.charCodeAt(54)
  return { traceId, spanId, sampled: ((flags <= 57 ? flags - 48 : flags - 87) & 1) === 1 }
}

/** The `traceparent` (version 00) naming a span. */
export const formatTraceParent = (span: TraceParent): string => `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
