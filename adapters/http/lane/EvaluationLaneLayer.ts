/**
 * The `EvaluationLaneService` layer: the lane (EvaluationLane.ts) wired to the services through a
 * runtime bridge (shared/RuntimeBridge.ts) and to the `Authentication` layer, which it needs but
 * does not build. Built once per app; its caches live as long as the app.
 *
 * Freshness: the snapshot cache and the streams (after it) hear the change feed, so a committed
 * write from anywhere reaches the next evaluation at once; the revision poll (`checkIntervalMs`)
 * and the key TTL are the safety nets for what no announcement brought (docs/guide/http.md).
 */
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import { ChangeFeed } from "../../../src/ports/ChangeFeed.js"
import { Environments } from "../../../src/services/projects/Environments.js"
import { Snapshots } from "../../../src/services/evaluation/Snapshots.js"
import { StreamTokens } from "../../../src/services/auth/StreamTokens.js"
import { Insights } from "../../../src/services/insights/Insights.js"
import { Ingestion } from "../../../src/services/experiments/Ingestion.js"
import { makeRunningMeasures } from "../../../src/services/experiments/RunningMeasures.js"
import { ProjectRepository } from "../../../src/ports/ProjectRepository.js"
import { Authentication } from "../shared/Authentication.js"
import { Cors, corsOriginsConfig, type CorsOrigins } from "../shared/Cors.js"
import { EvaluationLaneService } from "../shared/EvaluationLaneService.js"
import { parsePublicUrl, publicUrlConfig } from "../../settings/PublicUrl.js"
import { KeyCache } from "../shared/KeyCache.js"
import { runtimeBridge } from "../shared/RuntimeBridge.js"
import { EvaluationLane } from "./EvaluationLane.js"
import { ServerExposures } from "./ServerExposures.js"
import { SnapshotCache } from "./SnapshotCache.js"
import { StreamHub } from "./StreamHub.js"
import { StreamRoute } from "./StreamRoute.js"
import { StreamLimits, streamLimitsConfig, type StreamLimitValues } from "../shared/StreamLimits.js"
import { StreamUrls } from "./StreamUrls.js"
import { trustProxyConfig, trustProxyOf, type TrustProxySetting } from "../shared/TrustProxy.js"
import { andThen } from "../shared/MaybeAsync.js"
import { type EvaluationMetrics, MeteredCounter } from "../../metrics/EvaluationMetrics.js"

export interface LaneConfig {
  /** Revocation lag bound: how long an authenticated key is trusted without a lookup (1000 ms). */
  readonly keyTtlMs?: number
  /** Freshness bound: how often a cached project's revision is re-read (250 ms). */
  readonly checkIntervalMs?: number
  /** Origins allowed to call the evaluation side from a browser (default: FLAGPORT_CORS_ORIGINS, else `*`). */
  readonly corsOrigins?: CorsOrigins
  /** How often every open stream gets a `: ping` comment (15,000 ms). */
  readonly heartbeatMs?: number
  /** The path prefix the app is mounted under ("" for the root), for the stream URLs OFREP hands out. */
  readonly prefix?: string
  /**
   * The proxies believed about the client's address (X-Forwarded-For, for the per-address stream
   * bound) and the origin of those URLs (X-Forwarded-Proto / X-Forwarded-Host): `false`, `true`
   * (one proxy), a number of proxies, or addresses and CIDR ranges as FLAGPORT_TRUST_PROXY takes
   * them (default: FLAGPORT_TRUST_PROXY, else false).
   */
  readonly trustProxy?: TrustProxySetting
  /**
   * The base those URLs start with instead (`https://flags.example.com`; the mount prefix is then
   * part of it); default: FLAGPORT_PUBLIC_URL, else taken from the request.
   */
  readonly publicUrl?: string
  /** Bounds on open streams (default: FLAGPORT_STREAMS_PER_KEY, FLAGPORT_STREAMS_PER_ADDRESS, FLAGPORT_STREAMS_MAX). */
  readonly streamLimits?: Partial<StreamLimitValues>
  /** Count evaluations for insights (true). `false` only to measure what counting costs (bench/http.bench.ts). */
  readonly countEvaluations?: boolean
  /** Where evaluations are also counted by reason for /metrics (adapters/metrics); absent: metrics off. */
  readonly evaluationMetrics?: EvaluationMetrics
}

/** A public URL given in code is held to the rules of FLAGPORT_PUBLIC_URL. */
const givenPublicUrl = (raw: string) =>
  Either.match(parsePublicUrl(raw), {
    onLeft: (why) => Effect.fail(ConfigError.InvalidData(["publicUrl"], `${why} (got ${JSON.stringify(raw)})`)),
    onRight: (url) => Effect.succeed(Option.some(url))
  })

export const make = (config: LaneConfig = {}) =>
  Effect.gen(function* () {
    const auth = yield* Authentication
    const snapshots = yield* Snapshots
    const environments = yield* Environments
    const feed = yield* ChangeFeed
    const projects = yield* ProjectRepository
    const tokens = yield* StreamTokens
    const insights = yield* Insights
    const ingestion = yield* Ingestion
    const measured = yield* makeRunningMeasures
    const { run, logInternal } = yield* runtimeBridge
    const runtime = yield* Effect.runtime<never>()
    // Which flags and rules running experiments and release plans measure, read now for every project, then again
    // for a project on each change of it (below).
    const exposures = new ServerExposures({
      running: (projectId) => run(measured(projectId)),
      offer: ingestion.offer,
      logError: (message, error) => Runtime.runFork(runtime)(Effect.logWarning(message, error))
    })
    for (const project of yield* projects.list()) exposures.set(project.id, yield* measured(project.id))
    const cache = new SnapshotCache(
      {
        revision: (projectId) => run(snapshots.revision(projectId)),
        environments: (projectId) => run(Effect.map(environments.list(projectId), (list) => list.map((environment) => environment.key))),
        snapshot: (projectId, environment) =>
          run(snapshots.snapshot(projectId, environment)).then(({ keyListsLoading, ...read }) =>
            keyListsLoading === undefined ? read : { ...read, keyListsLoading: () => run(keyListsLoading) }
          )
      },
      {
        ...(config.checkIntervalMs === undefined ? {} : { checkIntervalMs: config.checkIntervalMs }),
        // A write that only the revision check found (no announcement came) reaches the streams
        // too, and the experiments the server records exposures of.
        discovered: (projectId) => {
          exposures.refresh(projectId)
          hub.projectChanged(projectId)
        },
        // A snapshot held back while its key lists loaded is now served: the streams send it.
        swapped: (projectId) => hub.projectChanged(projectId)
      }
    )
    // Stream tokens name their key by id: a cache of live keys by id, emptied on revocation like `keys`.
    const keysById = new KeyCache((keyId) => run(Effect.map(tokens.liveKey(keyId), Option.getOrNull)), {
      ...(config.keyTtlMs === undefined ? {} : { ttlMs: config.keyTtlMs })
    })
    const hub: StreamHub = new StreamHub({
      current: (projectId, environment) => cache.get(projectId, environment),
      // Streams are opened with a key (its id): rechecked through the cache by id, so a
      // revocation no announcement brought (the CLI on SQLite) ends them within two seconds.
      isLive: (keyId) => andThen(keysById.lookup(keyId), (key) => key !== null),
      logError: logInternal,
      ...(config.heartbeatMs === undefined ? {} : { heartbeatMs: config.heartbeatMs }),
      ...(config.keyTtlMs === undefined ? {} : { recheckMs: config.keyTtlMs })
    })
    // Streams end before anything this layer depends on (the database) is released.
    yield* Effect.addFinalizer(() => Effect.sync(() => hub.closeAll()))
    yield* feed.subscribe((change) => {
      switch (change._tag) {
        case "ConfigChanged":
          // Any change of a project may be an experiment started or stopped (another process's
          // on SQLite arrives as a project change): its running experiments are read again.
          exposures.refresh(change.projectId)
          cache.committed({
            projectId: change.projectId,
            revision: change.revision,
            environments: change.environments,
            environmentKeysMayDiffer: change.kind === "environment" || change.kind === "project"
          })
          // After the cache has taken the change, so the streams read the new configuration.
          return hub.changed(change)
        case "ApiKeyRevoked":
          // The authenticator's own cache hears the revocation itself (shared/Authentication.ts).
          keysById.revoked(change.keyId)
          return hub.revoked(change.keyId)
      }
    })
    const cors = new Cors(config.corsOrigins ?? (yield* corsOriginsConfig))
    const insightsCounter = config.countEvaluations === false ? undefined : insights.counter
    // With metrics off the lane holds insights' counter itself: metrics cost nothing then.
    const counter = config.evaluationMetrics === undefined ? insightsCounter : new MeteredCounter(config.evaluationMetrics, insightsCounter)
    const trustProxy = config.trustProxy === undefined ? yield* trustProxyConfig : trustProxyOf(config.trustProxy)
    const streams = new StreamRoute({
      auth,
      verifyToken: (token) => run(tokens.verify(token)),
      keysById,
      snapshots: cache,
      hub,
      limits: new StreamLimits({ ...(yield* streamLimitsConfig), ...config.streamLimits }, "change"),
      trustProxy
    })
    // OFREP's bulk evaluation points at this server's stream, with a token for the caller.
    const urls = new StreamUrls({
      issue: (principal, scope) => run(tokens.issue(principal, scope)),
      prefix: config.prefix ?? "",
      trustProxy,
      ...Option.match(config.publicUrl === undefined ? yield* publicUrlConfig : yield* givenPublicUrl(config.publicUrl), {
        onNone: () => ({}),
        onSome: (publicUrl) => ({ publicUrl })
      })
    })
    const lane = new EvaluationLane({
      auth,
      cors,
      snapshots: cache,
      streams,
      hub,
      eventStreams: (principal, scope, request) => urls.eventStreams(principal, scope, request),
      counter,
      exposures,
      keyListChange: (projectId, segmentKey, list, salt, since, to) => run(snapshots.keyListChange(projectId, segmentKey, list, salt, since, to))
    })
    return Context.make(EvaluationLaneService, lane)
  })

export const layer = (config: LaneConfig = {}) => Layer.scopedContext(make(config))
