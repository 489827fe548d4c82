/**
 * Evaluates one flag both ways: by flagd's own in-process evaluator (`@openfeature/flagd-core`)
 * over the flagd definition, and by Flagport's evaluator over what the import made of it.
 *
 * flagd-core runs targeting compiled to JavaScript by default, or interpreted. The two agree except
 * in one place we found: compiled, `{"cat": [{"var": "$flagd.flagKey"}, {"var": "email"}]}` without
 * an email sometimes yields "<flagKey>null" (depending on the expression around it), interpreted it
 * yields the flag key, as JSONLogic defines `cat`. The reference is the interpreter; the compiled
 * mode is compared wherever the two modes agree.
 *
 * A context is Flagport's (`key` and `attributes`); flagd sees the same as an OpenFeature context
 * (`targetingKey` and the attributes beside it).
 */
import { FlagdCore } from "@openfeature/flagd-core"
import * as Either from "effect/Either"
import type { SnapshotFlag } from "../../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../../src/domain/evaluation/Evaluate.js"
import { type FlagTranslation, translateDocument } from "../../../src/domain/flagd/FlagdDocument.js"

export interface Ctx {
  readonly key?: string
  readonly attributes: Readonly<Record<string, unknown>>
}

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} }

export const translations = (document: unknown): ReadonlyArray<FlagTranslation> => {
  const result = translateDocument(document)
  if (Either.isLeft(result)) throw new Error(result.left.message)
  return result.right
}

export const translated = (document: unknown, key: string): Extract<FlagTranslation, { _tag: "Translated" }> => {
  const found = translations(document).find((t) => t.key === key)
  if (found === undefined || found._tag !== "Translated") throw new Error(`flag ${key} not translated: ${JSON.stringify(found)}`)
  return found
}

/** flagd's answer: the variant served, or "error" when flagd fails the evaluation (the caller's default). */
export type FlagdAnswer = { readonly variant: string } | "error"

/** Flagport's answer: the variation served, and the rollout's variations when a rollout served it. */
export interface FlagportAnswer {
  readonly variationKey: string | null
  readonly rollout: ReadonlyArray<string> | null
}

const answer = (r: { readonly reason?: string | undefined; readonly variant?: string | undefined }): FlagdAnswer =>
  r.reason === "ERROR" || r.variant === undefined ? "error" : { variant: r.variant }

export interface Pair {
  /** flagd-core, interpreting the targeting. */
  readonly flagd: (ctx: Ctx) => FlagdAnswer
  /** flagd-core, compiling the targeting (its default). */
  readonly flagdCompiled: (ctx: Ctx) => FlagdAnswer
  readonly flagport: (ctx: Ctx) => FlagportAnswer
  readonly translation: Extract<FlagTranslation, { _tag: "Translated" }>
}

export const pair = (document: unknown, key: string): Pair => {
  const translation = translated(document, key)
  const core = new FlagdCore(undefined, silent, { disableDynamicCodeGeneration: true })
  core.setConfigurations(JSON.stringify(document))
  const compiledCore = new FlagdCore(undefined, silent)
  compiledCore.setConfigurations(JSON.stringify(document))
  const flag: SnapshotFlag = {
    key,
    type: translation.flag.type,
    enabled: translation.targeting.enabled,
    variations: translation.flag.variations,
    defaultVariationKey: translation.targeting.defaultVariationKey,
    offVariationKey: translation.targeting.offVariationKey,
    rules: translation.targeting.rules.map((rule, i) => ({ ...rule, id: `r${i}` }))
  }
  const compiled = Evaluate.compile({ environment: "import", flags: [flag], segments: [] })
  const resolve = (ctx: Ctx, core: FlagdCore) => {
    const flagdContext = { ...(ctx.key === undefined ? {} : { targetingKey: ctx.key }), ...ctx.attributes }
    switch (flag.type) {
      case "boolean":
        return core.resolveBooleanEvaluation(key, false, flagdContext)
      case "string":
        return core.resolveStringEvaluation(key, "", flagdContext)
      case "number":
        return core.resolveNumberEvaluation(key, 0, flagdContext)
      case "json":
        return core.resolveObjectEvaluation(key, {}, flagdContext)
    }
  }
  return {
    translation,
    flagd: (ctx) => answer(resolve(ctx, core)),
    flagdCompiled: (ctx) => answer(resolve(ctx, compiledCore)),
    flagport: (ctx) => {
      const result = Evaluate.evaluate(compiled, key, { ...(ctx.key === undefined ? {} : { key: ctx.key }), attributes: ctx.attributes })
      const rule = result.reason.kind === "RULE_MATCH" && result.reason.ruleIndex !== undefined ? flag.rules[result.reason.ruleIndex] : undefined
      const rollout = rule?.rollout?.variations.filter((v) => v.weight > 0).map((v) => v.variationKey) ?? null
      return { variationKey: result.variationKey, rollout }
    }
  }
}

/**
 * Whether both engines agree on one context: the same variant, except where a rollout served it
 * (the buckets differ by design), where flagd's variant must be one the rollout serves. `null`
 * when flagd fails the evaluation (it then answers the caller's default, which Flagport has not).
 */
export const agree = (p: Pair, ctx: Ctx): boolean | null => {
  const flagd = p.flagd(ctx)
  if (flagd === "error") return null
  const flagport = p.flagport(ctx)
  const same = (variant: string) => (flagport.rollout !== null ? flagport.rollout.includes(variant) : flagport.variationKey === variant)
  const compiled = p.flagdCompiled(ctx)
  const modesAgree = compiled !== "error" && compiled.variant === flagd.variant
  return same(flagd.variant) && (!modesAgree || same(compiled.variant))
}
