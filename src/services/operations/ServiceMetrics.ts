/**
 * What the use cases measure, as Effect metrics (`effect/Metric`: part of Effect, no adapter):
 * the core says what happened, and an adapter (adapters/metrics) exposes it, to Prometheus or
 * anything else that reads Effect's metric registry. Names follow Prometheus conventions since
 * that is where they are read; every label value is from a fixed set.
 */
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as IngestMetrics from "./IngestMetrics.js"

const deliveries = Metric.counter("flagport_webhook_deliveries_total", {
  description: "Webhook delivery attempts by outcome: succeeded, retrying (failed, another attempt is scheduled) or failed (no attempt left).",
  incremental: true
})

/** One delivery attempt's outcome (WebhookDispatcher.attempt). */
export const webhookDelivery = {
  succeeded: Metric.tagged(deliveries, "outcome", "succeeded"),
  retrying: Metric.tagged(deliveries, "outcome", "retrying"),
  failed: Metric.tagged(deliveries, "outcome", "failed")
} as const

/** Seconds between when a scheduled change was due and when it was applied (Scheduler). */
export const schedulerLag = Metric.histogram(
  "flagport_scheduler_lag_seconds",
  MetricBoundaries.fromIterable([0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900]),
  "Delay between a scheduled change's due time and its application."
)

const signInRefusals = Metric.counter("flagport_signin_failures_total", {
  description: "Password sign-ins and setups refused, by reason: invalid_credentials, too_many_attempts (one email's failures), address_limited (one client address's attempts) or busy (the password hashing queue was full).",
  incremental: true
})

/** Refused sign-ins with a password: wrong email or password, or the email's attempts used up (SignIn). */
export const signInFailures = {
  invalidCredentials: Metric.tagged(signInRefusals, "reason", "invalid_credentials"),
  tooManyAttempts: Metric.tagged(signInRefusals, "reason", "too_many_attempts"),
  addressLimited: Metric.tagged(signInRefusals, "reason", "address_limited"),
  busy: Metric.tagged(signInRefusals, "reason", "busy")
} as const

/** Argon2 operations started (SignInGuard): what unauthenticated sign-in traffic costs this process. */
export const passwordHashes = Metric.counter("flagport_password_hashes_total", {
  description: "Password hashing operations (Argon2id hash or verify) started by sign-ins, setups and new passwords.",
  incremental: true
})

/** Every metric above, for an exporter that must know them before their first update. */
export const all: ReadonlyArray<Metric.Metric<any, any, any>> = [
  webhookDelivery.succeeded,
  webhookDelivery.retrying,
  webhookDelivery.failed,
  schedulerLag,
  signInFailures.invalidCredentials,
  signInFailures.tooManyAttempts,
  signInFailures.addressLimited,
  signInFailures.busy,
  passwordHashes,
  ...IngestMetrics.allIngest
]
