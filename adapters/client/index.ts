/**
 * `flagport/client`: evaluate Flagport flags in process, kept fresh from a Flagport server.
 *
 *   import { createClient } from "flagport/client"
 *   const flags = await createClient({ url: "https://flags.example.com", key: process.env.FLAGPORT_KEY!, environment: "production" })
 *   if (flags.boolean("new-checkout", { key: user.id, attributes: { plan: user.plan } }, false)) ...
 *
 * See docs/guide/sdk.md. Hosts written with Effect: `flagport/client/effect` (FlagportClient.ts), a
 * separate entry so that this one stays free of Effect (its bundle budget is 30 KB gzipped).
 */
export { type Client, createClient } from "./Client.js"
export type { ClientOptions } from "./Options.js"
export { FlagportServerError } from "./Refusal.js"
export type { ClientEventName, ClientEvents, ClientStatus, DeliveryCounts, Detail, ErrorCode, EvaluationEvent, FlagContext, FlagType, Json } from "./Types.js"
export type { FlagTypes, KeyFor, KeyOf, UntypedFlags } from "./Types.js"
export type { ConfigSnapshot, EvaluationResult, Reason } from "./Core.js"
export type { BackoffPolicy } from "./Backoff.js"
export type { Timers } from "./Timers.js"
