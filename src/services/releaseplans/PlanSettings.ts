import * as Config from "effect/Config"
import type { ConfigError } from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** The default pause between two checks of a running plan's guardrails: a minute. */
export const DEFAULT_CHECK_EVERY_MILLIS = 60_000

/**
 * How often a running plan's guardrails are checked between its steps. A reference with its
 * default, read when the use cases and the scheduler are built (FLAGPORT_RELEASE_PLAN_CHECK_SECONDS),
 * so every writer of plans computes the same next check.
 */
export class GuardrailCheckEvery extends Context.Reference<GuardrailCheckEvery>()("flagport/releaseplans/GuardrailCheckEvery", {
  defaultValue: (): number => DEFAULT_CHECK_EVERY_MILLIS
}) {}

/**
 * FLAGPORT_RELEASE_PLAN_CHECK_SECONDS: seconds between two guardrail checks of a running plan, at
 * least 1 (default 60). Checking more often costs one aggregate read per plan and check, and never
 * raises the false alarm rate (the guardrails' confidence sequence holds at every look).
 */
export const checkEverySecondsConfig: Config.Config<number> = Config.number("FLAGPORT_RELEASE_PLAN_CHECK_SECONDS").pipe(
  Config.validate({ message: "Expected a number of seconds, at least 1", validation: (seconds) => Number.isFinite(seconds) && seconds >= 1 }),
  Config.withDefault(DEFAULT_CHECK_EVERY_MILLIS / 1000)
)

/** The check interval from the environment; fails at start on a bad FLAGPORT_RELEASE_PLAN_CHECK_SECONDS. */
export const layerConfig: Layer.Layer<never, ConfigError> = Layer.unwrapEffect(
  Effect.map(checkEverySecondsConfig, (seconds) => Layer.succeed(GuardrailCheckEvery, Math.round(seconds * 1000)))
)
