/**
 * The OFREP 0.3.0 routes of the evaluation lane (OpenFeature Remote Evaluation Protocol), so the
 * community providers (`@openfeature/ofrep-provider`, `@openfeature/ofrep-web-provider`) work
 * against Flagport unmodified:
 *
 * - `POST /ofrep/v1/evaluate/flags/{key}`: one flag, 200 with its evaluation, 404 FLAG_NOT_FOUND,
 *   400 GENERAL when the flag cannot be evaluated (its definition is broken);
 * - `POST /ofrep/v1/evaluate/flags`: every flag, with an ETag over the configuration and the
 *   context (304 on `If-None-Match`) and `metadata.version` (the configuration's ETag, the value
 *   the change stream's events carry).
 *
 * They evaluate exactly as POST /v1/evaluate does: the same authentication and `Policy` (the
 * project from the key; the environment from a key bound to one, else the `Flagport-Environment`
 * header), the same compiled snapshots and `Evaluate`; only the request and response shapes differ
 * (OfrepRequest.ts, OfrepJson.ts, OfrepErrors.ts).
 */
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"
import type { EvaluationResult } from "../../../src/domain/evaluation/EvaluationResult.js"
import type { LaneCounter } from "../../metrics/EvaluationMetrics.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { checkBodyHeaders } from "../shared/Body.js"
import { beginBody, endBody, putByte, putBytes, putBytesAfter } from "../shared/BodySlab.js"
import type { LaneRequest, LaneResponse } from "../shared/EvaluationLaneService.js"
import { andThen, type MaybeAsync, unwrap } from "../shared/MaybeAsync.js"
import { etagMatches } from "./Etag.js"
import { flagNotFound } from "./OfrepErrors.js"
import { bulkEtagOf, cachedOfrepFlagBytes, isOfrepError, ofrepFlagBytes, ofrepFlagJson } from "./OfrepJson.js"
import { decodeOfrepBody } from "./OfrepRequest.js"
import type { ExposureTap, ServerExposures } from "./ServerExposures.js"
import type { CompiledEntry, SnapshotCache } from "./SnapshotCache.js"

/** The request header naming the environment when the key is bound to none. */
export const ENVIRONMENT_HEADER = "flagport-environment"

/**
 * The bulk response's `eventStreams` (OFREP's change notifications, ADR-0008): entries for the
 * caller's project and environment, built from the request (its origin) and the key; each one
 * JSON such as `{"type":"sse","url":"https://.../v1/stream?token=..."}`. Absent: no `eventStreams`.
 */
export type EventStreamsOf = (principal: Principal, scope: Policy.EvaluationScope, request: LaneRequest) => MaybeAsync<ReadonlyArray<unknown>>

export interface OfrepOptions {
  readonly snapshots: SnapshotCache
  readonly eventStreams?: EventStreamsOf
  /** Where each answered evaluation is counted (evaluation insights); absent: nothing is counted. */
  readonly counter?: LaneCounter | undefined
  /** Where the server records exposures of running experiments; absent: none are recorded. */
  readonly exposures?: ServerExposures | undefined
}

const JSON_HEADERS = { "content-type": "application/json" } as const

/** Bulk ETags kept (by configuration and body text); the map is emptied when full. */
const ETAGS_KEPT = 4_096
/** Bodies longer than this are not kept (a usual context is a few hundred bytes). */
const ETAG_BODY_KEPT = 1_024

export class Ofrep {
  /**
   * Bulk ETags by the configuration's ETag and the request's body text: the same body gives the
   * same context, so the same ETag, without writing its canonical JSON and hashing it again (a
   * provider polls with the same body; the 304 route was mostly that). At most ETAGS_KEPT of at
   * most ETAG_BODY_KEPT bytes each.
   */
  private readonly etags = new Map<string, string>()

  constructor(private readonly options: OfrepOptions) {}

  /** `bulkEtagOf(entry.etag, raw)`, remembered for the body's bytes. */
  private bulkEtag(entry: CompiledEntry, bytes: Uint8Array, raw: Readonly<Record<string, unknown>>): string {
    if (bytes.byteLength > ETAG_BODY_KEPT) return bulkEtagOf(entry.etag, raw)
    // latin1: one character per byte, so different bytes are different keys.
    const key = `${entry.etag}\n${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")}`
    let etag = this.etags.get(key)
    if (etag === undefined) {
      etag = bulkEtagOf(entry.etag, raw)
      if (this.etags.size >= ETAGS_KEPT) this.etags.clear()
      this.etags.set(key, etag)
    }
    return etag
  }

  /** The project (from the key) and environment (bound key, else the header) the policy allows; throws its 400/403. */
  private scope(principal: Principal, request: LaneRequest): Policy.EvaluationScope {
    return unwrap(Policy.authorizeEvaluation(principal, undefined, request.header(ENVIRONMENT_HEADER)))
  }

  /** The scope, then the body (its headers first: a body over 1 MiB is refused unread), then the snapshot. */
  private prepare(principal: Principal, request: LaneRequest) {
    const scope = this.scope(principal, request)
    const bodyProblem = checkBodyHeaders((name) => request.header(name))
    if (bodyProblem !== undefined) throw bodyProblem
    return andThen(request.body(), (bytes) => {
      const decoded = decodeOfrepBody(bytes)
      return andThen(this.options.snapshots.get(scope.projectId, scope.environment), (entry) => ({ scope, decoded, entry, bytes }))
    })
  }

  /** POST /ofrep/v1/evaluate/flags/{key}. */
  flag(principal: Principal, flagKey: string, request: LaneRequest): MaybeAsync<LaneResponse> {
    return andThen(this.prepare(principal, request), ({ decoded, entry, scope }) => {
      const flag = entry.compiled.flags.get(flagKey)
      if (flag === undefined) throw flagNotFound(flagKey, scope.environment)
      const result = Evaluate.evaluate(entry.compiled, flagKey, decoded.context)
      this.options.counter?.countResult(scope.projectId, scope.environment, result)
      this.options.exposures?.in(scope.projectId, scope.environment)?.(flag, result, decoded.context)
      const body = ofrepFlagJson(flagKey, flag, result, entry.versions.get(flagKey))
      return { status: isOfrepError(result) ? 400 : 200, headers: JSON_HEADERS, body }
    })
  }

  /** POST /ofrep/v1/evaluate/flags: 304 when `If-None-Match` names this configuration and context. */
  bulk(principal: Principal, request: LaneRequest): MaybeAsync<LaneResponse> {
    return andThen(this.prepare(principal, request), ({ bytes, decoded, entry, scope }): MaybeAsync<LaneResponse> => {
      const etag = this.bulkEtag(entry, bytes, decoded.raw)
      if (etagMatches(request.header("if-none-match"), etag, false) && sameConfiguration(request.query, entry)) {
        return { status: 304, headers: { etag }, body: undefined }
      }
      const headers = { "content-type": "application/json", etag }
      // A 304 above served nothing new; a 200 counts every flag it answers. The event streams
      // first, so that the body is then written in one go (shared/BodySlab.ts).
      const body = (streams: ReadonlyArray<unknown> | undefined): LaneResponse => ({
        status: 200,
        headers,
        body: bulkBody(
          entry,
          decoded.context,
          this.options.counter?.countsIn(scope.projectId, scope.environment),
          this.options.exposures?.in(scope.projectId, scope.environment),
          streams
        )
      })
      const streams = this.options.eventStreams
      return streams === undefined ? body(undefined) : andThen(streams(principal, scope, request), body)
    })
  }
}

/** `],"metadata":{"version":<configuration ETag>}` by compiled configuration. */
const metadataBytes = new WeakMap<CompiledEntry, Buffer>()
/** `,"eventStreams":<entries>}` by entries (StreamUrls hands the same entries out again). */
const streamsBytes = new WeakMap<ReadonlyArray<unknown>, Buffer>()

const FLAGS_OPEN = Buffer.from('{"flags":[')
const CLOSE = 0x7d

/**
 * The bulk body, `{"flags":[...],"metadata":{"version":...}}` and `"eventStreams"` when given, as
 * UTF-8 bytes: every flag evaluated (as `Evaluate.evaluateAll` would, in snapshot order) and
 * copied from its cached fragment in one pass; `each` sees every result (the insights counter),
 * `tap` every result with its flag and context (the server's exposures).
 */
const bulkBody = (
  entry: CompiledEntry,
  context: Evaluate.LocalContext,
  each: ((result: EvaluationResult) => void) | undefined,
  tap: ExposureTap | undefined,
  streams: ReadonlyArray<unknown> | undefined
): Buffer => {
  beginBody()
  putBytes(FLAGS_OPEN)
  // One request, one `matches` budget for all its flags (Evaluator.evaluateEach).
  Evaluate.evaluateEach(entry.compiled.ordered, context, (flag, result, i) => {
    if (each !== undefined) each(result)
    if (tap !== undefined) tap(flag, result, context)
    const bytes = cachedOfrepFlagBytes(result) ?? ofrepFlagBytes(flag.key, flag, result, entry.versions.get(flag.key))
    if (i === 0) putBytesAfter(bytes, 1)
    else putBytes(bytes)
  })
  let metadata = metadataBytes.get(entry)
  if (metadata === undefined) {
    metadata = Buffer.from(`],"metadata":{"version":${JSON.stringify(entry.etag)}}`)
    metadataBytes.set(entry, metadata)
  }
  putBytes(metadata)
  if (streams !== undefined) {
    let tail = streamsBytes.get(streams)
    if (tail === undefined) {
      tail = Buffer.from(`,"eventStreams":${JSON.stringify(streams)}`)
      if (Object.isFrozen(streams)) streamsBytes.set(streams, tail)
    }
    putBytes(tail)
  }
  putByte(CLOSE)
  return endBody()
}

/**
 * OFREP's `flagConfigEtag` query parameter (sent on a refetch that a change event triggered)
 * names the configuration the event announced: when it is not the one served here, the answer is
 * a 200, whatever `If-None-Match` says (ADR-0008).
 */
const sameConfiguration = (query: string, entry: CompiledEntry): boolean => {
  if (query === "" || !query.includes("flagConfigEtag")) return true
  const announced = new URLSearchParams(query).get("flagConfigEtag")
  return announced === null || announced === entry.etag
}
