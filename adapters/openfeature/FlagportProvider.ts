/**
 * `flagport/openfeature`: an OpenFeature server provider over the Flagport client, so
 * OpenFeature applications evaluate in process with Flagport's evaluator.
 *
 *   await OpenFeature.setProviderAndWait(new FlagportProvider({ url, key, environment: "production" }))
 *   const enabled = await OpenFeature.getClient().getBooleanValue("new-checkout", false, { targetingKey: "user-1" })
 *
 * Lifecycle: `initialize` starts the client (or adopts one passed in) and fails, leaving the
 * provider in OpenFeature's ERROR state, when no configuration arrived within the client's start
 * timeout; the client keeps trying, and the provider emits READY once one arrives. Events:
 * CONFIGURATION_CHANGED with `flagsChanged` on every change, STALE when the server cannot be
 * reached (the last configuration is served), READY when it can again, ERROR for a problem the
 * operator must fix (a refused key, a refused configuration). `onClose` closes a client the
 * provider started (one passed in belongs to the caller).
 */
import {
  type EvaluationContext,
  type JsonValue,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  type ResolutionDetails
} from "@openfeature/server-sdk"
import { type Client, type ClientOptions, createClient, type FlagType } from "../client/index.js"
import { toFlagContext, toResolution } from "./Resolution.js"

export class FlagportProvider implements Provider {
  readonly metadata = { name: "flagport" } as const
  readonly runsOn = "server" as const
  readonly events = new OpenFeatureEventEmitter()
  private client: Client | undefined
  private readonly owned: boolean
  private unsubscribe: Array<() => void> = []

  /** From client options (the provider starts and closes the client) or a running client (the caller owns it). */
  constructor(private readonly source: ClientOptions | Client) {
    this.owned = !isClient(source)
    if (isClient(source)) this.client = source
  }

  async initialize(): Promise<void> {
    const client = this.client ?? (this.client = await createClient(this.source as ClientOptions))
    this.listen(client)
    if (client.status === "starting") {
      throw new Error("Flagport: no configuration within the start timeout; serving defaults until the server answers")
    }
  }

  private listen(client: Client): void {
    for (const off of this.unsubscribe) off()
    this.unsubscribe = [
      client.on("ready", () => this.events.emit(ProviderEvents.Ready)),
      client.on("recovered", () => this.events.emit(ProviderEvents.Ready)),
      client.on("change", (keys) => this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: [...keys] })),
      client.on("stale", (message) => this.events.emit(ProviderEvents.Stale, { message })),
      client.on("error", (message) => this.events.emit(ProviderEvents.Error, { message }))
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
        ? { flagKey, value: defaultValue, variationKey: null, reason: { kind: "ERROR" as const, error: "the provider is not initialized" }, errorCode: "PROVIDER_NOT_READY" as const }
        : client.detail(flagKey, toFlagContext(context), defaultValue, type)
    return Promise.resolve(toResolution(detail))
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
