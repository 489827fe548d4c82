/**
 * The management events hub (EventsHub.ts) as a layer: it lives as long as the HTTP layer, reads
 * the audit log, listens to the change feed, and its streams end before the database closes.
 * EventsLive.ts answers `GET /v1/projects/{projectId}/events` with it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ChangeFeed } from "../../../../src/ports/ChangeFeed.js"
import { Audit } from "../../../../src/services/audit/Audit.js"
import { runtimeBridge } from "../../shared/RuntimeBridge.js"
import { StreamLimits, streamLimitsConfig, type StreamLimitValues } from "../../shared/StreamLimits.js"
import { EventsHub } from "./EventsHub.js"

/** Entries read at once by one channel. */
const BATCH = 200

export interface ManagementEventsShape {
  readonly hub: EventsHub
  readonly limits: StreamLimits
}

export class ManagementEvents extends Context.Tag("@flagport/http/ManagementEvents")<ManagementEvents, ManagementEventsShape>() {}

export interface EventsConfig {
  readonly streamLimits?: Partial<StreamLimitValues>
  /** How often channels read and credentials are rechecked (1 s). */
  readonly pollMs?: number
}

/** The hub over the audit log and the change feed; every stream ends when the layer closes. */
export const layer = (config: EventsConfig = {}): Layer.Layer<ManagementEvents, never, Audit | ChangeFeed> =>
  Layer.scoped(
    ManagementEvents,
    Effect.gen(function* () {
      const audit = yield* Audit
      const feed = yield* ChangeFeed
      const bridge = yield* runtimeBridge
      const limits = new StreamLimits({ ...(yield* Effect.orDie(streamLimitsConfig)), ...config.streamLimits }, "events")
      const hub = new EventsHub({
        read: (projectId, after) => bridge.run(audit.eventsAfter(projectId, after, BATCH)),
        logError: (cause) => bridge.logInternal(cause),
        batch: BATCH,
        ...(config.pollMs === undefined ? {} : { pollMs: config.pollMs })
      })
      yield* feed.subscribe((change) => {
        if (change._tag === "ConfigChanged") hub.changed(change.projectId)
        else hub.recheck()
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => hub.closeAll()))
      return { hub, limits }
    })
  )
