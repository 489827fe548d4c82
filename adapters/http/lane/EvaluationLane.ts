/**
 * The evaluation lane: the evaluation routes (POST /v1/evaluate, GET /v1/flags/{flagKey}/eval,
 * GET /v1/config, the OFREP routes through Ofrep.ts, POST /v1/explain, and GET /v1/stream through
 * StreamRoute.ts). The Effect HTTP stack costs several times bare Node per request, so these
 * routes are answered by plain functions placed in front of the HttpApi app; they
 * share with it everything that defines behaviour (all from the shared room):
 *
 * - the request schemas of `EvaluationRequests.ts` (decoded with the same `Schema`, same parse options),
 * - `Authentication` (`Policy` and the key cache) and `Policy`'s authorization table,
 * - `Evaluate` over compiled snapshots (`SnapshotCache`),
 * - the error envelope of `Errors.ts` and the problem paths of `Problems.ts`,
 * - the OpenAPI declaration (the endpoints stay declared in the HttpApi; the HttpApi handlers
 *   call the same methods through the `EvaluationLaneService` tag, so either path gives the same answer).
 *
 * It is transport-independent: `answer` takes a route matched by `Routes.ts` and a `LaneRequest`
 * and gives a `LaneResponse`; the node `(req, res)` and the web `Request => Response` handlers
 * (serving/Embed.ts) translate.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Principal } from "../../../src/domain/auth/ApiKey.js"
import { contextLimitProblem } from "../../../src/domain/evaluation/ContextLimits.js"
import * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import type { LaneCounter } from "../../metrics/EvaluationMetrics.js"
import type { Authenticator } from "../shared/Authentication.js"
import { checkBodyHeaders, MAX_JSON_DEPTH, nestsTooDeeply, parseJsonBody } from "../shared/Body.js"
import type { Cors } from "../shared/Cors.js"
import * as Errors from "../shared/Errors.js"
import type { EvaluationLaneShape, LaneRequest, LaneResponse, LaneRoute } from "../shared/EvaluationLaneService.js"
import { ConfigQuery, EvaluateRequest, ExplainRequest, FlagEvalQuery, type KeyListQuery, unknownFlagEvalParameters } from "../shared/EvaluationRequests.js"
import { fromParseError, REQUEST_INVALID } from "../shared/Problems.js"
import { andThen, type MaybeAsync, unwrap } from "../shared/MaybeAsync.js"
import { etagMatches } from "./Etag.js"
import * as FastDecode from "./FastDecode.js"
import { KeyListRoute, type KeyListRouteOptions } from "./KeyListRoute.js"
import { type EventStreamsOf, Ofrep } from "./Ofrep.js"
import { ofrepErrorResponse } from "./OfrepErrors.js"
import { evaluateBody, resultJson } from "./ResultJson.js"
import type { ServerExposures } from "./ServerExposures.js"
import type { CompiledEntry, SnapshotCache } from "./SnapshotCache.js"
import type { StreamHub } from "./StreamHub.js"
import type { StreamRoute } from "./StreamRoute.js"

export type { LaneRequest }

const JSON_HEADERS = { "content-type": "application/json" } as const

/**
 * The context's limits (src/domain/Limits.ts), before any evaluation: a context that breaks one is
 * a 400 whose detail names the limit, so no request makes the evaluator read more than they allow.
 */
const checkContextLimits = (context: unknown, path: string): void => {
  const problem = contextLimitProblem(context, path)
  if (problem !== undefined) throw Errors.badRequest(REQUEST_INVALID, [problem])
}

const decodeEvaluate = Schema.decodeUnknownEither(EvaluateRequest)
const decodeExplain = Schema.decodeUnknownEither(ExplainRequest)
const decodeFlagQuery = Schema.decodeUnknownEither(FlagEvalQuery)
const decodeConfigQuery = Schema.decodeUnknownEither(ConfigQuery)

export { etagMatches }

export const errorResponse = (error: Errors.ApiError): LaneResponse => ({
  status: Errors.statusOf(error),
  headers: JSON_HEADERS,
  body: JSON.stringify(Errors.envelopeOf(error))
})

const json = (status: number, body: string): LaneResponse => ({ status, headers: JSON_HEADERS, body })

/** A request body as JSON (an empty body is null); throws the 400. */
const jsonBody = (raw: Uint8Array): unknown => {
  const parsed = parseJsonBody(raw)
  if (parsed === "empty") return null
  if (parsed === "tooDeep") throw Errors.nestedTooDeeply(MAX_JSON_DEPTH)
  if (parsed === "malformed") throw Errors.malformedJson()
  return parsed.json
}

/** `Accept-Encoding` names gzip with a non-zero quality. */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean => {
  if (acceptEncoding === undefined) return false
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";")
    if (name.trim().toLowerCase() !== "gzip") continue
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="))
    if (q === undefined || Number(q.slice(2)) > 0) return true
  }
  return false
}

const queryRecord = FastDecode.queryRecord

export interface LaneOptions {
  readonly auth: Authenticator
  /** CORS for every lane route (they are the evaluation side). */
  readonly cors: Cors
  readonly snapshots: SnapshotCache
  /** GET /v1/stream (its own authentication: a header or a stream token); without it the route is not found. */
  readonly streams?: StreamRoute
  /** The open streams, ended by `closeStreams`. */
  readonly hub?: StreamHub
  /** The OFREP bulk response's `eventStreams` (none when absent). */
  readonly eventStreams?: EventStreamsOf
  /** Where each answered evaluation is counted (evaluation insights); absent: nothing is counted. */
  readonly counter?: LaneCounter | undefined
  /** Where the server records exposures of running experiments (ServerExposures.ts); absent: none are recorded. */
  readonly exposures?: ServerExposures | undefined
  /** A key list's change between two versions (KeyListRoute.ts); absent: lists are always sent whole. */
  readonly keyListChange?: KeyListRouteOptions["change"]
}

/** An OFREP route's flag key, decoded (as it stands when it does not decode: it then names no flag). */
const ofrepFlagKey = (rawFlagKey: string): string => {
  try {
    return decodeURIComponent(rawFlagKey)
  } catch {
    return rawFlagKey
  }
}

export class EvaluationLane implements EvaluationLaneShape {
  private readonly ofrep: Ofrep
  private readonly keyLists: KeyListRoute

  constructor(private readonly options: LaneOptions) {
    this.keyLists = new KeyListRoute({ entry: (scope) => this.entry(scope), change: options.keyListChange ?? (() => Promise.resolve(undefined)) })
    this.ofrep = new Ofrep({
      snapshots: options.snapshots,
      counter: options.counter,
      exposures: options.exposures,
      ...(options.eventStreams === undefined ? {} : { eventStreams: options.eventStreams })
    })
  }

  /** Change streams open now (for /metrics). */
  get openStreams(): number {
    return this.options.hub?.size ?? 0
  }

  /** The CORS headers of an evaluation-side answer the HttpApi app gives (`Routes.corsOnApi`). */
  corsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
    return this.options.cors.answerHeaders(origin)
  }

  /**
   * Answers a lane route (matched by `Routes.routeOf`) with its CORS headers; any failure becomes
   * the envelope, or OFREP's error body on the OFREP routes.
   */
  answer(route: LaneRoute, request: LaneRequest): MaybeAsync<LaneResponse> {
    const origin = request.header("origin")
    const cors = this.options.cors
    if (route._tag === "preflight") return cors.preflight(origin, route.methods)
    const failed = (error: unknown) => cors.apply(origin, this.failureOf(route, error))
    let response: MaybeAsync<LaneResponse>
    try {
      response = this.dispatch(route, request)
    } catch (error) {
      return failed(error)
    }
    return response instanceof Promise ? response.then((answered) => cors.apply(origin, answered), failed) : cors.apply(origin, response)
  }

  /** A failure in the route's own error bodies. */
  private failureOf(route: LaneRoute, error: unknown): LaneResponse {
    const toApiError = (e: unknown) => this.options.auth.toApiError(e)
    if (route._tag === "ofrepFlag") return ofrepErrorResponse(error, ofrepFlagKey(route.rawFlagKey), toApiError)
    if (route._tag === "ofrepBulk") return ofrepErrorResponse(error, undefined, toApiError)
    return this.toResponse(error)
  }

  /** Ends every open stream and refuses new ones: the first step of a shutdown (before in-flight requests drain). */
  closeStreams(): void {
    this.options.hub?.closeAll()
  }

  /** Any failure as the envelope; unknown ones are logged and become a bare 500. */
  toResponse(error: unknown): LaneResponse {
    return errorResponse(this.options.auth.toApiError(error))
  }

  /** A route that needs credentials (a preflight is answered before, without them: browsers send none). */
  private dispatch(route: Exclude<LaneRoute, { readonly _tag: "preflight" }>, request: LaneRequest): MaybeAsync<LaneResponse> {
    if (route._tag === "stream") {
      if (this.options.streams === undefined) throw Errors.routeNotFound("GET", "/v1/stream")
      return this.options.streams.answer(request)
    }
    return andThen(this.options.auth.authenticate(request.header("authorization")), (principal) => {
      switch (route._tag) {
        case "evaluate": {
          const bodyProblem = checkBodyHeaders((name) => request.header(name))
          if (bodyProblem !== undefined) throw bodyProblem
          return andThen(request.body(), (raw) => this.evaluate(principal, this.decodeBody(raw)))
        }
        case "explain": {
          const bodyProblem = checkBodyHeaders((name) => request.header(name))
          if (bodyProblem !== undefined) throw bodyProblem
          return andThen(request.body(), (raw) => this.explain(principal, this.decodeExplainBody(raw)))
        }
        case "flag": {
          let flagKey: string
          try {
            flagKey = decodeURIComponent(route.rawFlagKey)
          } catch {
            throw Errors.notFound("Flag not found")
          }
          const record = queryRecord(request.query)
          const unknown = unknownFlagEvalParameters(record)
          if (unknown.length > 0) throw Errors.badRequest(REQUEST_INVALID, unknown)
          const { attributes } = record
          if (typeof attributes === "string" && nestsTooDeeply(attributes)) throw Errors.nestedTooDeeply(MAX_JSON_DEPTH)
          const fast = FastDecode.flagEvalQuery(record)
          if (fast !== undefined) return this.flag(principal, flagKey, fast)
          const query = decodeFlagQuery(record)
          if (Either.isLeft(query)) throw fromParseError(query.left)
          return this.flag(principal, flagKey, query.right)
        }
        case "ofrepFlag":
          return this.ofrep.flag(principal, ofrepFlagKey(route.rawFlagKey), request)
        case "ofrepBulk":
          return this.ofrep.bulk(principal, request)
        case "keyList": {
          let segmentKey: string
          try {
            segmentKey = decodeURIComponent(route.rawSegmentKey)
          } catch {
            throw Errors.notFound(`Segment '${route.rawSegmentKey}' has no ${route.list} key list`)
          }
          return this.keyList(principal, segmentKey, route.list, KeyListRoute.query(request.query))
        }
        case "config": {
          const record = queryRecord(request.query)
          const fast = FastDecode.configQuery(record)
          const query = fast === undefined ? decodeConfigQuery(record) : Either.right(fast)
          if (Either.isLeft(query)) throw fromParseError(query.left)
          return this.config(principal, query.right, request.header("if-none-match"), request.header("accept-encoding"))
        }
      }
    })
  }

  /** The nesting depth, JSON, then the fast decoder, then (for the errors) the schema. */
  private decodeBody(raw: Uint8Array): EvaluateRequest {
    const parsed = jsonBody(raw)
    const fast = FastDecode.evaluateRequest(parsed)
    if (fast !== undefined) return fast
    const input = decodeEvaluate(parsed)
    if (Either.isLeft(input)) throw fromParseError(input.left)
    return input.right
  }

  /** POST /v1/explain's body, with the schema (a debugging call: no fast decoder). */
  private decodeExplainBody(raw: Uint8Array): ExplainRequest {
    const input = decodeExplain(jsonBody(raw))
    if (Either.isLeft(input)) throw fromParseError(input.left)
    return input.right
  }

  /** The project and environment the policy allows (a bound key may supply the environment); throws its 400/403. */
  private scope(
    principal: Principal,
    requested: { readonly projectId?: string | undefined; readonly environment?: string | undefined }
  ): Policy.EvaluationScope {
    return unwrap(Policy.authorizeEvaluation(principal, requested.projectId, requested.environment))
  }

  /** The compiled snapshot of an allowed scope (404 for an unknown project or environment). */
  private entry(scope: Policy.EvaluationScope): MaybeAsync<CompiledEntry> {
    return this.options.snapshots.get(scope.projectId, scope.environment)
  }

  /** POST /v1/evaluate with a decoded body. */
  evaluate(principal: Principal, input: EvaluateRequest): MaybeAsync<LaneResponse> {
    checkContextLimits(input.context, "context")
    const scope = this.scope(principal, input)
    return andThen(this.entry(scope), (entry) => {
      const count = this.options.counter?.countsIn(scope.projectId, scope.environment)
      const tap = this.options.exposures?.in(scope.projectId, scope.environment)
      return { status: 200, headers: JSON_HEADERS, body: evaluateBody(scope.environment, entry.compiled, input.context, count, tap) }
    })
  }

  /** GET /v1/flags/{flagKey}/eval with a decoded query. */
  flag(principal: Principal, flagKey: string, query: FlagEvalQuery): MaybeAsync<LaneResponse> {
    const context = query.attributes === undefined ? { key: query.key } : { key: query.key, attributes: query.attributes }
    checkContextLimits(context, "")
    const scope = this.scope(principal, query)
    return andThen(this.entry(scope), (entry) => {
      if (!Evaluate.hasFlag(entry.compiled, flagKey)) throw Errors.notFound(`Flag '${flagKey}' not found`)
      const result = Evaluate.evaluate(entry.compiled, flagKey, context)
      this.options.counter?.countResult(scope.projectId, scope.environment, result)
      const tap = this.options.exposures?.in(scope.projectId, scope.environment)
      if (tap !== undefined) tap(entry.compiled.flags.get(flagKey)!, result, context)
      return json(200, resultJson(result))
    })
  }

  /** GET /v1/stream, for the HttpApi path (the lane answers it in `dispatch`, with CORS). */
  stream(query: string, header: (name: string) => string | undefined, remoteAddress?: string): MaybeAsync<LaneResponse> {
    if (this.options.streams === undefined) throw Errors.routeNotFound("GET", "/v1/stream")
    return this.options.streams.answer({ query, header, body: () => new Uint8Array(0), remoteAddress })
  }

  /**
   * POST /v1/explain: the same checks as the single-flag route, then `Evaluate.explain`, whose
   * result is that route's. A lane route for its CORS (browsers explain with a client key); the
   * HttpApi handler answers it the same way through the `EvaluationLaneService` tag.
   */
  explain(principal: Principal, input: ExplainRequest): MaybeAsync<LaneResponse> {
    checkContextLimits(input.context, "context")
    return andThen(this.entry(this.scope(principal, input)), (entry) => {
      unwrap(Policy.authorizeConfigRead(principal, entry.clientConfig))
      if (!Evaluate.hasFlag(entry.compiled, input.flagKey)) throw Errors.notFound(`Flag '${input.flagKey}' not found`)
      const { result, trace } = Evaluate.explain(entry.compiled, input.flagKey, input.context)
      return json(200, `{"result":${resultJson(result)},"trace":${JSON.stringify(trace)}}`)
    })
  }

  /** GET /v1/config/segments/{segmentKey}/{list} (KeyListRoute.ts). */
  keyList(principal: Principal, segmentKey: string, list: "included" | "excluded", query: KeyListQuery): MaybeAsync<LaneResponse> {
    return this.keyLists.answer(principal, segmentKey, list, query)
  }

  /** GET /v1/config: the body serialized (and gzipped) once per version; 304 on a matching ETag. */
  config(
    principal: Principal,
    query: ConfigQuery,
    ifNoneMatch: string | undefined,
    acceptEncoding: string | undefined
  ): MaybeAsync<LaneResponse> {
    return andThen(this.entry(this.scope(principal, query)), (entry) => {
      unwrap(Policy.authorizeConfigRead(principal, entry.clientConfig))
      if (etagMatches(ifNoneMatch, entry.etag)) {
        return { status: 304, headers: { etag: entry.etag, vary: "Accept-Encoding" }, body: undefined }
      }
      if (acceptsGzip(acceptEncoding)) {
        return {
          status: 200,
          headers: { "content-type": "application/json", etag: entry.etag, vary: "Accept-Encoding", "content-encoding": "gzip" },
          body: entry.gzip
        }
      }
      return {
        status: 200,
        headers: { "content-type": "application/json", etag: entry.etag, vary: "Accept-Encoding" },
        body: entry.json
      }
    })
  }
}
