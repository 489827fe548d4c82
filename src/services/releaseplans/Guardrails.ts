import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { GuardrailCheck } from "../../domain/experiments/Guardrail.js"
import type { ReleasePlan } from "../../domain/releaseplans/ReleasePlan.js"
import type { StorageError } from "../../ports/StorageError.js"

/**
 * The guardrails of release plans: whether a running plan's guardrail metrics show harm on the
 * units its rule served (treatment: `variationKey`; control: the rest of the rule). The stepper
 * (ReleaseStepper.ts) asks before each step and at each check in between; on the outcome `harmed`
 * it pauses or rolls the plan back at once, with the check's figures in the audit entry and the
 * `release_plan.harmed` webhook event.
 *
 * Optional: where no layer provides it (a host that does not collect exposures), plans advance on
 * time alone. The experiment engine's implementation is provided by the composition root.
 */
export interface GuardrailsShape {
  /** The check of the plan's guardrails now; a plan without guardrails is never harmed. */
  readonly check: (projectId: string, plan: ReleasePlan) => Effect.Effect<GuardrailCheck, StorageError>
}

export class Guardrails extends Context.Tag("@flagport/services/Guardrails")<Guardrails, GuardrailsShape>() {}
