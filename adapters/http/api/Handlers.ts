/**
 * The HttpApi handlers: each endpoint is one call to a service, its domain failures mapped by
 * the one mapping of `Errors.ts`. Authorization already happened in the security middleware
 * (`ManagementAccess` carries the allowed scope). The evaluation endpoints call the same
 * methods as the lane routes (through the shared `EvaluationLaneService` tag), so both paths answer alike.
 */
import { HttpApiBuilder, HttpApp, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { ApiKeys } from "../../../src/services/auth/ApiKeys.js"
import { EnvironmentCopy } from "../../../src/services/projects/EnvironmentCopy.js"
import { Environments } from "../../../src/services/projects/Environments.js"
import { Flags, type WriteOptions as FlagWriteOptions } from "../../../src/services/flags/Flags.js"
import { Projects } from "../../../src/services/projects/Projects.js"
import { Segments } from "../../../src/services/segments/Segments.js"
import { Insights } from "../../../src/services/insights/Insights.js"
import { flagSeen, keySeen } from "../../../src/domain/auth/EnvironmentView.js"
import type { PatchFlagInput } from "../../../src/domain/definitions/Flag.js"
import * as Policy from "../../../src/domain/auth/Policy.js"
import { typescriptModule } from "../../../src/domain/codegen/TypeScriptModule.js"
import { FlagportApi } from "./Api.js"
import { allowedBy, asEnvelopes, flagAsSeen, mapped, mayRead, mayWrite, mayWriteAll, seenEnvironment } from "./Calling.js"
import { FlagsAsCodeLive, SchemasLive } from "./FlagsAsCodeHandlers.js"
import { AuditLive } from "./AuditHandlers.js"
import { ChangeRequestsLive } from "./ChangeRequestHandlers.js"
import { SchedulesLive } from "./ScheduleHandlers.js"
import { WebhooksLive } from "./WebhookHandlers.js"
import { PeopleLive } from "./PeopleHandlers.js"
import { EventsLive } from "./EventsLive.js"
import { EvaluationPrincipal, ManagementAccess } from "./Security.js"
import { Authentication } from "../shared/Authentication.js"
import * as Errors from "../shared/Errors.js"
import { EvaluationLaneService, type EvaluationLaneShape, type LaneRequest, type LaneResponse, type OfrepRoute } from "../shared/EvaluationLaneService.js"
import { EVENT_STREAM_HEADERS, type StreamOpening } from "../shared/EventStream.js"
import * as Health from "./Health.js"
import { configEtagOf, etagOf, parseIfMatch } from "../shared/Versions.js"

/**
 * Answers with the flag as the caller sees it (a bound key: its environment's configuration only)
 * and the flag's version as the `ETag` header. The version is the flag's, whoever asks: it moves
 * with every change of the flag, so a bound key learns that the flag changed, never what or where
 * (docs/guide/governance.md, "What a bound key reads").
 */
const withEtag = <F extends { readonly version: number; readonly configs: ReadonlyArray<{ readonly environmentKey: string }> }>(flag: F) =>
  Effect.zipRight(
    HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, "etag", etagOf(flag.version)))),
    flagAsSeen(flag)
  )

/**
 * What `If-Match` requires, or the 400: the flag's version, or (only on a targeting write to
 * `environment`) that environment's configuration's version.
 */
const ifMatchOf = (headers: { readonly "if-match"?: string | undefined }, targeting?: string) => {
  const parsed = parseIfMatch(headers["if-match"])
  if (parsed instanceof Errors.BadRequest) return Effect.fail(parsed)
  if (parsed.environment === undefined) return Effect.succeed<FlagWriteOptions>({ ifMatch: parsed.version })
  if (targeting === undefined) {
    return Effect.fail(Errors.badRequest("If-Match names the targeting of one environment; this write takes the flag's ETag, such as \"3\".", [
      { path: "If-Match", message: "expected the flag's ETag (GET .../flags/{flagKey})" }
    ]))
  }
  if (parsed.environment !== targeting) {
    return Effect.fail(Errors.badRequest(`If-Match names the targeting of '${parsed.environment}', but this write replaces the targeting of '${targeting}'.`, [
      { path: "If-Match", message: `expected the ETag of '${targeting}' (GET .../targeting?environment=${targeting}) or the flag's` }
    ]))
  }
  return Effect.succeed<FlagWriteOptions>({ ifMatchConfig: { environment: parsed.environment, version: parsed.version } })
}

/**
 * A flag PATCH as a bound key may make it (Policy.authorizeVariationsWrite): variations identical to
 * the flag's are allowed and left out of the write, so a concurrent change of them is never undone;
 * changed ones are refused. Unbound callers' patches pass as they are (without a read).
 */
const boundVariationsChecked = (projectId: string, flagKey: string, payload: PatchFlagInput) =>
  Effect.gen(function* () {
    if (payload.variations === undefined || (yield* seenEnvironment) === null) return payload
    const current = yield* Effect.flatMap(Flags, (flags) => mapped(flags.get(projectId, flagKey)))
    yield* allowedBy((caller) => Policy.authorizeVariationsWrite(caller, current.variations, payload.variations))
    const { variations: _same, ...rest } = payload
    return rest
  })

/** 403 unless the caller may make a key bound to `environment` (Policy.authorizeKeyCreation: never wider than itself). */
const keyMayBeMade = (environment: string | null) => allowedBy((caller) => Policy.authorizeKeyCreation(caller, environment))

export const HealthLive = HttpApiBuilder.group(FlagportApi, "health", (handlers) =>
  handlers.handle("health", () => Health.check)
)

export const ProjectsLive = HttpApiBuilder.group(FlagportApi, "projects", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function* () {
        const access = yield* ManagementAccess
        const projects = yield* Projects
        const all = yield* mapped(projects.list(null))
        const visible = access.visible
        return { data: visible === null ? all : all.filter((project) => visible.includes(project.id)) }
      })
    )
    .handle("create", ({ payload }) => Effect.flatMap(Projects, (projects) => mapped(projects.create(payload))))
)

export const EnvironmentsLive = HttpApiBuilder.group(FlagportApi, "environments", (handlers) =>
  handlers
    .handle("list", ({ path }) =>
      Effect.flatMap(Environments, (envs) => Effect.map(mapped(envs.list(path.projectId)), (data) => ({ data })))
    )
    // A new environment is one the bound key could neither read nor write: no bound key makes one.
    .handle("create", ({ path, payload }) => Effect.zipRight(mayWriteAll, Effect.flatMap(Environments, (envs) => mapped(envs.create(path.projectId, payload)))))
    .handle("update", ({ path, payload }) =>
      Effect.zipRight(
        mayWrite(path.environmentKey),
        Effect.flatMap(Environments, (envs) => mapped(envs.update(path.projectId, path.environmentKey, payload)))
      )
    )
    .handle("copy", ({ headers, path, payload }) =>
      Effect.gen(function* () {
        yield* mayWrite(path.environmentKey)
        // Copying reads the source: a bound key copying another environment into its own could then read it there.
        yield* mayRead(payload.from)
        const options = yield* ifMatchOf(headers)
        const copies = yield* EnvironmentCopy
        return { data: yield* mapped(copies.copy(path.projectId, path.environmentKey, payload, options)) }
      })
    )
)

export const FlagsLive = HttpApiBuilder.group(FlagportApi, "flags", (handlers) =>
  handlers
    // A new flag has a configuration in every environment (which a bound key could then not delete).
    .handle("create", ({ path, payload }) =>
      Effect.zipRight(mayWriteAll, Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.create(path.projectId, payload)), withEtag)))
    )
    .handle("list", ({ path, urlParams }) =>
      Effect.gen(function* () {
        const flags = yield* Flags
        const all = yield* mapped(flags.list(path.projectId))
        const seen = yield* seenEnvironment
        return { data: (urlParams.status === "stale" ? all.filter((flag) => flag.stale) : all).map((flag) => flagSeen(seen, flag)) }
      })
    )
    .handle("get", ({ path }) => Effect.flatMap(Flags, (flags) => Effect.flatMap(mapped(flags.get(path.projectId, path.flagKey)), withEtag)))
    // One environment's configuration, with its own ETag (a targeting PUT naming it conflicts only with changes there).
    .handle("getTargeting", ({ path, urlParams }) =>
      Effect.zipRight(mayRead(urlParams.environment), Effect.flatMap(Flags, (flags) =>
        Effect.flatMap(mapped(flags.targeting(path.projectId, path.flagKey, urlParams.environment)), (config) =>
          Effect.as(
            HttpApp.appendPreResponseHandler((_request, response) =>
              Effect.succeed(HttpServerResponse.setHeader(response, "etag", configEtagOf(config.environmentKey, config.version)))),
            config
          )))))
    // Changed variations change what every environment serves; a deletion removes every configuration.
    .handle("patch", ({ headers, path, payload }) =>
      Effect.gen(function* () {
        const options = yield* ifMatchOf(headers)
        const flags = yield* Flags
        const written = yield* boundVariationsChecked(path.projectId, path.flagKey, payload)
        return yield* Effect.flatMap(mapped(flags.patch(path.projectId, path.flagKey, written, options)), withEtag)
      })
    )
    .handle("remove", ({ headers, path }) =>
      Effect.gen(function* () {
        yield* mayWriteAll
        const options = yield* ifMatchOf(headers)
        const flags = yield* Flags
        yield* mapped(flags.remove(path.projectId, path.flagKey, options))
      })
    )
    .handle("replaceTargeting", ({ headers, path, payload }) =>
      Effect.gen(function* () {
        yield* mayWrite(payload.environment)
        const options = yield* ifMatchOf(headers, payload.environment)
        const flags = yield* Flags
        return yield* Effect.flatMap(mapped(flags.replaceTargeting(path.projectId, path.flagKey, payload, options)), withEtag)
      })
    )
)

export const SegmentsLive = HttpApiBuilder.group(FlagportApi, "segments", (handlers) =>
  handlers
    // A segment may be used by the rules of every environment: a bound key makes, changes and deletes none.
    .handle("create", ({ path, payload }) => Effect.zipRight(mayWriteAll, Effect.flatMap(Segments, (segments) => mapped(segments.create(path.projectId, payload)))))
    .handle("list", ({ path }) =>
      Effect.flatMap(Segments, (segments) => Effect.map(mapped(segments.list(path.projectId)), (data) => ({ data })))
    )
    .handle("get", ({ path }) => Effect.flatMap(Segments, (segments) => mapped(segments.get(path.projectId, path.segmentKey))))
    .handle("patch", ({ path, payload }) =>
      Effect.zipRight(mayWriteAll, Effect.flatMap(Segments, (segments) => mapped(segments.patch(path.projectId, path.segmentKey, payload))))
    )
    .handle("remove", ({ path }) => Effect.zipRight(mayWriteAll, Effect.flatMap(Segments, (segments) => mapped(segments.remove(path.projectId, path.segmentKey)))))
)

export const KeysLive = HttpApiBuilder.group(FlagportApi, "keys", (handlers) =>
  handlers
    // A bound key lists only the keys of its own environment (EnvironmentView.keySeen): the keys it may revoke.
    .handle("list", ({ path }) =>
      Effect.flatMap(seenEnvironment, (seen) =>
        Effect.flatMap(ApiKeys, (keys) => Effect.map(mapped(keys.listInProject(path.projectId)), (data) => ({ data: data.filter((key) => keySeen(seen, key)) })))))
    .handle("create", ({ path, payload }) =>
      Effect.flatMap(keyMayBeMade(payload.environment ?? null), () => Effect.flatMap(ApiKeys, (keys) =>
        Effect.map(mapped(keys.create({ type: payload.type, name: payload.name, projectId: path.projectId, environment: payload.environment ?? null })), (created) => ({
          ...created.apiKey,
          key: created.secret
        }))
      ))
    )
    // ApiKeys.revoke announces the revocation on the change feed: every process's key cache drops the key.
    .handle("revoke", ({ path }) =>
      Effect.gen(function* () {
        const access = yield* ManagementAccess
        const keys = yield* ApiKeys
        // A bound key revokes only keys of its own environment; an unknown id falls through to the 404.
        const target = (yield* mapped(keys.listInProject(path.projectId))).find((key) => key.id === path.keyId)
        if (target !== undefined) {
          yield* Either.match(Policy.authorizeKeyRevocation(access.caller, target.environment), {
            onLeft: (denied) => Effect.fail(Errors.forbidden(denied.message)),
            onRight: () => Effect.void
          })
        }
        yield* mapped(keys.revokeInProject(path.projectId, path.keyId, access.caller._tag === "Person" ? null : access.caller.keyId))
      })
    )
)

/** A lane answer as an HttpServerResponse (bytes, status and headers as the evaluation lane writes them). */
const toServerResponse = (response: LaneResponse): HttpServerResponse.HttpServerResponse =>
  response.stream !== undefined
    ? HttpServerResponse.stream(eventStream(response.stream), { status: response.status, headers: response.headers, contentType: EVENT_STREAM_HEADERS["content-type"] })
    : response.body === undefined
    ? HttpServerResponse.empty({ status: response.status, headers: response.headers })
    : typeof response.body === "string"
    ? HttpServerResponse.text(response.body, { status: response.status, headers: response.headers, contentType: "application/json" })
    : HttpServerResponse.uint8Array(response.body, { status: response.status, headers: response.headers, contentType: "application/json" })

const encoder = new TextEncoder()

/** A lane stream as an Effect Stream of bytes; its end (the client went away) detaches it. */
const eventStream = (opening: StreamOpening): Stream.Stream<Uint8Array> =>
  Stream.async<Uint8Array, never, never>((emit) => {
    const detach = opening.start({
      write: (chunk) => void emit.single(encoder.encode(chunk)),
      end: () => void emit.end()
    })
    return Effect.sync(detach)
  })

const isConflict = (error: Errors.ApiError): error is Errors.Conflict => error instanceof Errors.Conflict

/**
 * The lane's answer, or its failure as the envelope. Evaluation never conflicts (the group does
 * not declare 409): a conflict would be a bug, so it becomes a defect (logged, answered 500).
 */
const viaLane = (f: (lane: EvaluationLaneShape) => LaneResponse | Promise<LaneResponse>) =>
  Effect.flatMap(Effect.all([EvaluationLaneService, Authentication]), ([lane, auth]) =>
    Effect.tryPromise({ try: async () => f(lane), catch: (error) => auth.toApiError(error) }).pipe(
      Effect.catchIf(isConflict, Effect.die),
      Effect.map(toServerResponse)
    )
  )

export const EvaluationLive = HttpApiBuilder.group(FlagportApi, "evaluation", (handlers) =>
  handlers
    .handle("evaluate", ({ payload }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.evaluate(principal, payload)))
    )
    .handle("flag", ({ path, urlParams }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.flag(principal, path.flagKey, urlParams)))
    )
    .handle("explain", ({ payload }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) => viaLane((lane) => lane.explain(principal, payload)))
    )
    .handle("config", ({ headers, request, urlParams }) =>
      Effect.flatMap(EvaluationPrincipal, (principal) =>
        viaLane((lane) => lane.config(principal, urlParams, headers["if-none-match"], request.headers["accept-encoding"]))
      )
    )
)

const hostOfUrl = (url: string): string | undefined => (URL.canParse(url) ? new URL(url).host : undefined)

/** An HttpApi request as the lane reads it (the body as bytes: OFREP decodes its own). */
const laneRequestOf = (request: HttpServerRequest.HttpServerRequest): LaneRequest => {
  const q = request.url.indexOf("?")
  return {
    query: q === -1 ? "" : request.url.slice(q + 1),
    // A web Request carries its host in the URL (fetch never sets Host), e.g. for OFREP's stream URLs.
    header: (name) => request.headers[name] ?? (name === "host" ? hostOfUrl(request.originalUrl) : undefined),
    body: () => Effect.runPromise(Effect.map(request.arrayBuffer, (buffer) => new Uint8Array(buffer))),
    remoteAddress: Option.getOrUndefined(request.remoteAddress)
  }
}

/** The OFREP routes, answered whole by the lane (authentication, CORS, OFREP's error bodies), as on the lane. */
const viaLaneRaw = (route: OfrepRoute, request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(EvaluationLaneService, (lane) =>
    // The lane answers every failure itself, in OFREP's bodies: a rejection here is a defect.
    Effect.promise(async () => lane.answer(route, laneRequestOf(request))).pipe(Effect.map(toServerResponse))
  )

export const OfrepLive = HttpApiBuilder.group(FlagportApi, "OFREP", (handlers) =>
  handlers
    .handleRaw("evaluateFlag", ({ path, request }) => viaLaneRaw({ _tag: "ofrepFlag", rawFlagKey: encodeURIComponent(path.key) }, request))
    .handleRaw("evaluateFlags", ({ request }) => viaLaneRaw({ _tag: "ofrepBulk" }, request))
)

export const StreamsLive = HttpApiBuilder.group(FlagportApi, "streams", (handlers) =>
  handlers.handleRaw("stream", ({ request }) => {
    const q = request.url.indexOf("?")
    const query = q === -1 ? "" : request.url.slice(q + 1)
    return viaLane((lane) => lane.stream(query, (name) => request.headers[name], Option.getOrUndefined(request.remoteAddress))).pipe(
      // A GET without a body cannot be too large or of the wrong type: those would be bugs.
      Effect.catchIf(
        (error): error is Errors.PayloadTooLarge | Errors.UnsupportedMediaType =>
          error instanceof Errors.PayloadTooLarge || error instanceof Errors.UnsupportedMediaType,
        Effect.die
      )
    )
  }))

export const InsightsLive = HttpApiBuilder.group(FlagportApi, "insights", (handlers) =>
  handlers.handle("series", ({ path, urlParams }) =>
    Effect.zipRight(mayRead(urlParams.environment), Effect.flatMap(Insights, (insights) => mapped(insights.series(path.projectId, path.flagKey, urlParams))))
  )
)

/** POST /v1/insights: the scope as for an evaluation (the same policy), then the SDK's counts. */
export const InsightsReportLive = HttpApiBuilder.group(FlagportApi, "insightsReport", (handlers) =>
  handlers.handle("report", ({ payload }) =>
    Effect.gen(function* () {
      const principal = yield* EvaluationPrincipal
      const scope = Policy.authorizeEvaluation(principal, payload.projectId, payload.environment)
      if (Either.isLeft(scope)) return yield* Effect.fail(Errors.fromDomain(scope.left))
      const insights = yield* Insights
      return yield* asEnvelopes(insights.report({ ...scope.right, keyId: principal.keyId }, payload))
    })
  )
)

export const CodegenLive = HttpApiBuilder.group(FlagportApi, "codegen", (handlers) =>
  handlers.handle("typescript", ({ path }) =>
    Effect.flatMap(Flags, (flags) => Effect.map(mapped(flags.list(path.projectId)), (list) => typescriptModule(path.projectId, list)))
  )
)

/** Every group's handlers. */
export const HandlersLive = Layer.mergeAll(
  HealthLive,
  ProjectsLive,
  EnvironmentsLive,
  FlagsLive,
  SegmentsLive,
  WebhooksLive,
  KeysLive,
  SchedulesLive,
  ChangeRequestsLive,
  AuditLive,
  EventsLive,
  EvaluationLive,
  OfrepLive,
  InsightsLive,
  InsightsReportLive,
  CodegenLive,
  FlagsAsCodeLive,
  SchemasLive,
  StreamsLive,
  PeopleLive
)

