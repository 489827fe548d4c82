/**
 * `flagport/openfeature`: an OpenFeature server provider over the Flagport client, so
 * OpenFeature applications evaluate in process with Flagport's evaluator.
 *
 *   await OpenFeature.setProviderAndWait(new FlagportProvider({ url, key, environment: "production" }))
 *   const enabled = await OpenFeature.getClient().getBooleanValue("new-checkout", false, { targetingKey: "user-1" })
 *
 * Lifecycle: `initialize` starts the client (or adopts one passed in) and fails, leaving the
 * provider in OpenFeature's ERROR state:
 * - at once when the server refuses the key, project or environment, with an OpenFeature error
 *   whose `code` is INVALID_CONTEXT (400, 404: no such environment or project, or none named) or
 *   GENERAL (401, 403: the key) and whose message carries the server's; a client it started is
 *   then closed (`createClient` rejected), one passed in keeps asking, slowly;
 * - when a client passed in stands by a problem (a refusal, a refused configuration: GENERAL);
 * - when no configuration arrived within the client's start timeout; the client keeps trying, and
 *   the provider emits READY once one arrives.
 * Events: CONFIGURATION_CHANGED with `flagsChanged` on every change, STALE when the server cannot
 * be reached (the last configuration is served), READY when it can again, ERROR (with `errorCode`
 * as above, GENERAL for a refused configuration) for a problem the operator must fix. `onClose`
 * closes a client the provider started (one passed in belongs to the caller), after its last
 * exposures and metric events are sent. Tracking: `track` queues a metric event (see below).
 */
import {
  ErrorCode,
  type EvaluationContext,
  GeneralError,
  type JsonValue,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  type ResolutionDetails,
  type TrackingEventDetails
} from "@openfeature/server-sdk"
import { type Client, type ClientOptions, createClient, type FlagType, FlagportServerError } from "../client/index.js"
import { refusalCode, toOpenFeatureError } from "./Refusals.js"
import { toFlagContext, toResolution } from "./Resolution.js"

export class FlagportProvider implements Provider {
  readonly metadata = { name: "flagport" } as const
  readonly runsOn = "server" as const
  readonly events = new OpenFeatureEventEmitter()
  private client: Client | undefined
  private readonly owned: boolean
  private unsubscribe: Array<() => void> = []
  /** Why `initialize` failed without a client (the server refused it): what evaluations then say. */
  private startFailure: string | undefined
  /**
   * While `initialize` runs, the problem the client reports (its replay of one standing when the
   * provider subscribed): `initialize` fails with it, and OpenFeature emits that ERROR, so the
   * provider does not emit it too.
   */
  private starting: { problem: { readonly message: string; readonly refusal: FlagportServerError | undefined } | undefined } | undefined

  /** From client options (the provider starts and closes the client) or a running client (the caller owns it). */
  constructor(private readonly source: ClientOptions | Client) {
    this.owned = !isClient(source)
    if (isClient(source)) this.client = source
  }

  async initialize(): Promise<void> {
    let client = this.client
    if (client === undefined) {
      try {
        client = this.client = await createClient(this.source as ClientOptions)
      } catch (error) {
        if (!(error instanceof FlagportServerError)) throw error
        this.startFailure = error.message
        throw toOpenFeatureError(error)
      }
    }
    const starting: NonNullable<typeof this.starting> = { problem: undefined }
    this.starting = starting
    try {
      this.listen(client)
      // The client replays a standing problem to a new listener in a microtask queued by `on`; this
      // continuation is queued after it, so the replay has arrived by then.
      await Promise.resolve()
    } finally {
      this.starting = undefined
    }
    const problem = starting.problem
    if (problem !== undefined) throw problem.refusal === undefined ? new GeneralError(problem.message) : toOpenFeatureError(problem.refusal)
    if (client.status === "starting") {
      throw new Error("Flagport: no configuration within the start timeout; serving defaults until the server answers")
    }
  }

  private listen(client: Client): void {
    for (const off of this.unsubscribe) off()
    const ready = () => this.events.emit(ProviderEvents.Ready)
    this.unsubscribe = [
      client.on("ready", ready),
      client.on("recovered", ready),
      client.on("change", (keys) => this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: [...keys] })),
      client.on("stale", (message) => this.events.emit(ProviderEvents.Stale, { message })),
      client.on("error", (message, refusal) => {
        if (this.starting !== undefined) {
          this.starting.problem ??= { message, refusal }
          return
        }
        // Handlers get the details as emitted, `errorCode` included (the SDK copies every field).
        this.events.emit(ProviderEvents.Error, { message, errorCode: refusal === undefined ? ErrorCode.GENERAL : refusalCode(refusal) })
      })
    ]
  }

  async onClose(): Promise<void> {
    for (const off of this.unsubscribe) off()
    this.unsubscribe = []
    if (this.owned) await this.client?.close()
  }

  private resolve<T>(flagKey: string, type: FlagType, defaultValue: T, context: EvaluationContext): Promise<ResolutionDetails<T>> {
    const client = this.client
    const detail =
      client === undefined
        ? {
            flagKey,
            value: defaultValue,
            variationKey: null,
            reason: { kind: "ERROR" as const, error: this.startFailure === undefined ? "the provider is not initialized" : `the provider did not start: ${this.startFailure}` },
            errorCode: "PROVIDER_NOT_READY" as const
          }
        : client.detail(flagKey, toFlagContext(context), defaultValue, type)
    return Promise.resolve(toResolution(detail))
  }

  /**
   * OpenFeature's tracking (`client.track(name, context, { value })`): a metric event for
   * `POST /v1/track`, queued by the client (`client.track`). Its unit is `details.unit` when it is
   * a string (for a rollout that buckets by another attribute than the targeting key), else the
   * context's `targetingKey`; `details.value`, when a number, is its value. An event without a
   * unit is dropped and counted (`delivery.events.dropped.invalid`).
   */
  track(trackingEventName: string, context: EvaluationContext, details: TrackingEventDetails): void {
    const unit = typeof details?.unit === "string" ? details.unit : context.targetingKey
    // No unit: handed on all the same, so the client counts it as invalid instead of it vanishing here.
    this.client?.track(trackingEventName, unit as string, typeof details?.value === "number" ? details.value : undefined)
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext): Promise<ResolutionDetails<boolean>> {
    return this.resolve(flagKey, "boolean", defaultValue, context)
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext): Promise<ResolutionDetails<string>> {
    return this.resolve(flagKey, "string", defaultValue, context)
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext): Promise<ResolutionDetails<number>> {
    return this.resolve(flagKey, "number", defaultValue, context)
  }

  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext): Promise<ResolutionDetails<T>> {
    return this.resolve(flagKey, "json", defaultValue, context)
  }
}

const isClient = (source: ClientOptions | Client): source is Client => typeof (source as Client).detail === "function"
