/**
 * Flagport's public surface, as namespaces.
 */
export * as Ids from "./domain/Ids.js"
export * as Flag from "./domain/Flag.js"
export * as Targeting from "./domain/Targeting.js"
export * as Segment from "./domain/Segment.js"
export * as Project from "./domain/Project.js"
export * as ConfigSnapshot from "./domain/ConfigSnapshot.js"
export * as EvaluationContext from "./domain/EvaluationContext.js"
export * as EvaluationResult from "./domain/EvaluationResult.js"
export * as Webhook from "./domain/Webhook.js"
export * as ApiKey from "./domain/ApiKey.js"
export * as Errors from "./domain/Errors.js"
export * as Policy from "./domain/Policy.js"
export * as Validation from "./domain/Validation.js"
