/**
 * The evaluation lane as a service: what the transports (serving/) and the HttpApi evaluation
 * endpoints (api/) ask of it; `lane/EvaluationLane.ts` implements it, `lane/EvaluationLaneLayer.ts`
 * provides it. Both paths answer through the same methods, so they give the same bytes.
 */
import * as Context from "effect/Context"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import type { StreamOpening } from "./EventStream.js"
import type { ConfigQuery, EvaluateRequest, ExplainRequest, FlagEvalQuery, KeyListQuery } from "./EvaluationRequests.js"
import type { MaybeAsync } from "./MaybeAsync.js"

/** An answer as plain data, whatever the transport writes it to. */
export interface LaneResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | string | undefined
  /** Set on a Server-Sent Events answer (then `body` is undefined): what to write once the headers are sent. */
  readonly stream?: StreamOpening
}

/** What the lane needs from a request beyond its route, whatever the transport. */
export interface LaneRequest {
  /** The raw query string without `?` ("" when none). */
  readonly query: string
  /** A header by its lower-case name. */
  readonly header: (name: string) => string | undefined
  /**
   * The body, at most `MAX_BODY_BYTES` (else fails with `BodyTooLarge`, both from shared/Body.ts):
   * the bytes themselves when the transport has read them already (node), else a promise.
   */
  readonly body: () => MaybeAsync<Uint8Array>
  /** The client's address as the transport saw it (the peer of the socket), when it knows one. */
  readonly remoteAddress?: string | undefined
}

/**
 * The OFREP routes (POST /ofrep/v1/evaluate/flags/{key} and POST /ofrep/v1/evaluate/flags). They
 * authenticate, answer CORS and write errors in OFREP's own bodies, so either path hands them
 * the raw request and writes back what the lane answers.
 */
export type OfrepRoute =
  | { readonly _tag: "ofrepFlag"; /** As it stands in the path, still percent-encoded. */ readonly rawFlagKey: string }
  | { readonly _tag: "ofrepBulk" }

/** A route the lane answers, as the route table (lane/Routes.ts) matched it. */
export type LaneRoute =
  | { readonly _tag: "evaluate" }
  | { readonly _tag: "explain" }
  | { readonly _tag: "flag"; /** As it stands in the path, still percent-encoded. */ readonly rawFlagKey: string }
  | { readonly _tag: "config" }
  | {
    readonly _tag: "keyList"
    /** As it stands in the path, still percent-encoded. */
    readonly rawSegmentKey: string
    readonly list: "included" | "excluded"
  }
  | { readonly _tag: "stream" }
  | { readonly _tag: "preflight"; /** The methods the path answers, for Access-Control-Allow-Methods. */ readonly methods: string }
  | OfrepRoute

export interface EvaluationLaneShape {
  /** A route of the table, whole (CORS included); any failure becomes its error answer. */
  readonly answer: (route: LaneRoute, request: LaneRequest) => MaybeAsync<LaneResponse>
  /** Any failure as the envelope (unknown ones logged and a bare 500). */
  readonly toResponse: (error: unknown) => LaneResponse
  /** The CORS headers of an evaluation-side answer the HttpApi app gives (`Routes.corsOnApi`). */
  readonly corsHeaders: (origin: string | undefined) => Readonly<Record<string, string>>
  /** Change streams open now (for /metrics). */
  readonly openStreams: number
  /** Ends every open stream and refuses new ones: the first step of a shutdown. */
  readonly closeStreams: () => void
  /** POST /v1/evaluate with a decoded body. */
  readonly evaluate: (principal: Principal, input: EvaluateRequest) => MaybeAsync<LaneResponse>
  /** GET /v1/flags/{flagKey}/eval with a decoded query. */
  readonly flag: (principal: Principal, flagKey: string, query: FlagEvalQuery) => MaybeAsync<LaneResponse>
  /** POST /v1/explain with a decoded body: the flag's result as the route above gives it, and its trace. */
  readonly explain: (principal: Principal, input: ExplainRequest) => MaybeAsync<LaneResponse>
  /** GET /v1/config: 304 on a matching ETag, gzip when accepted. */
  readonly config: (
    principal: Principal,
    query: ConfigQuery,
    ifNoneMatch: string | undefined,
    acceptEncoding: string | undefined
  ) => MaybeAsync<LaneResponse>
  /** GET /v1/config/segments/{segmentKey}/{list}: the list's hashes, whole or the change since `since` (lane/KeyListRoute.ts). */
  readonly keyList: (principal: Principal, segmentKey: string, list: "included" | "excluded", query: KeyListQuery) => MaybeAsync<LaneResponse>
  /** GET /v1/stream (it authenticates itself: the Authorization header or `token` in the query). */
  readonly stream: (query: string, header: (name: string) => string | undefined, remoteAddress?: string) => MaybeAsync<LaneResponse>
}

export class EvaluationLaneService extends Context.Tag("@flagport/http/EvaluationLaneService")<EvaluationLaneService, EvaluationLaneShape>() {}
