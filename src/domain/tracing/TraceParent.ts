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

const DASH = 45
const ZERO = 48

/** Each character's value as a lowercase hex digit (as the specification writes the fields), else -1. */
export const HEX_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 16; i++) HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i
const hexValue = (s: string, i: number): number => {
  const c = s.charCodeAt(i)
  return c < 128 ? HEX_VALUE[c]! : -1
}

/**
 * The sampled flag of a trimmed `traceparent` (1 or 0), or -1 when it is malformed:
 * `vv-<32>-<16>-ff` in lowercase hex, then the end or a `-` (a later version's further fields),
 * version `ff` and all-zero ids refused. One pass and no string made: the evaluation lane reads
 * one per traced request (adapters/telemetry/lane/LaneSpans.ts) and takes the ids' bytes from the header itself.
 */
export const traceParentFlags = (s: string): number => {
  if (s.length < 55 || (s.length > 55 && s.charCodeAt(55) !== DASH)) return -1
  // Version 00 has exactly four fields; only later versions may add more.
  if (s.length > 55 && s.charCodeAt(0) === ZERO && s.charCodeAt(1) === ZERO) return -1
  if (s.charCodeAt(2) !== DASH || s.charCodeAt(35) !== DASH || s.charCodeAt(52) !== DASH) return -1
  const version = hexValue(s, 0)
  const version2 = hexValue(s, 1)
  const flags = hexValue(s, 54)
  // A character that is not hex (-1) makes `invalid` negative; an id whose digits are all 0 ORs to 0.
  let invalid = version | version2 | hexValue(s, 53) | flags
  let trace = 0
  for (let i = 3; i < 35; i++) {
    const v = hexValue(s, i)
    invalid |= v
    trace |= v
  }
  let span = 0
  for (let i = 36; i < 52; i++) {
    const v = hexValue(s, i)
    invalid |= v
    span |= v
  }
  if (invalid < 0 || trace === 0 || span === 0 || (version === 15 && version2 === 15)) return -1
  return flags & 1
}

/**
 * The span a `traceparent` names, or undefined when it is malformed (surrounding whitespace
 * ignored; see `traceParentFlags`).
 */
export const parseTraceParent = (header: string): TraceParent | undefined => {
  const s = header.trim()
  const flags = traceParentFlags(s)
  return flags < 0 ? undefined : { traceId: s.slice(3, 35), spanId: s.slice(36, 52), sampled: flags === 1 }
}

/** The `traceparent` (version 00) naming a span. */
export const formatTraceParent = (span: TraceParent): string => `00-${span.traceId}-${span.spanId}-${span.sampled ? "01" : "00"}`
