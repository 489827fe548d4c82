import * as Context from "effect/Context"

/**
 * How often a running plan's guardrails are checked between its steps. A reference with its
 * default, so the composition root (and tests) may set it and every use case reads the same value.
 */
export class GuardrailCheckEvery extends Context.Reference<GuardrailCheckEvery>()("flagport/releaseplans/GuardrailCheckEvery", {
  defaultValue: (): number => 60_000
}) {}
