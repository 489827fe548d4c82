/** The plan a create makes, and the draft a patch makes (only a draft may change: Transitions.ts). */
import { type CreateReleasePlanInput, DEFAULT_ALPHA, type ReleasePlan, type UpdateReleasePlanInput } from "./ReleasePlan.js"

/** A new draft of `flagKey` (`onHarm` defaults to pause, `guardrails` to none). */
export const draftOf = (input: CreateReleasePlanInput, flagKey: string, id: string, now: string): ReleasePlan => ({
  id,
  flagKey,
  environment: input.environment,
  ruleId: input.ruleId,
  variationKey: input.variationKey,
  steps: input.steps,
  guardrails: input.guardrails ?? [],
  onHarm: input.onHarm ?? "pause",
  alpha: input.alpha ?? DEFAULT_ALPHA,
  status: "draft",
  currentStep: null,
  nextStepAt: null,
  pausedBy: null,
  failure: null,
  harm: null,
  baseline: null,
  startedBy: null,
  startedAt: null,
  completedAt: null,
  version: 1,
  createdAt: now,
  updatedAt: now
})

/** The draft after the patch: fields left out keep their value. */
export const patched = (plan: ReleasePlan, patch: UpdateReleasePlanInput, now: string): ReleasePlan => ({
  ...plan,
  ruleId: patch.ruleId ?? plan.ruleId,
  variationKey: patch.variationKey ?? plan.variationKey,
  steps: patch.steps ?? plan.steps,
  guardrails: patch.guardrails ?? plan.guardrails,
  onHarm: patch.onHarm ?? plan.onHarm,
  alpha: patch.alpha ?? plan.alpha,
  version: plan.version + 1,
  updatedAt: now
})
