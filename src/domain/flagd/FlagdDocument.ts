/**
 * A flagd flag definition file (flagd.dev/reference/flag-definitions) as Flagport flags: for each
 * flag, the body that creates it (`CreateFlagInput`: each variant a variation keyed by its name,
 * the type read from the variants' values) and its targeting for one environment (enabled, the
 * rules of its `targeting`, the default variation), or the reason it cannot be imported.
 *
 * Pure: the CLI reads the file and writes what this returns through the usual use cases
 * (services/flagd/FlagdImport.ts). Shared `$evaluators` are substituted where a flag's targeting
 * names them with `{"$ref": NAME}`, as flagd does.
 */
import * as Either from "effect/Either"
import { type CreateFlagInput, type FlagType } from "../definitions/Flag.js"
import { KEY_PATTERN } from "../definitions/Ids.js"
import { isJson } from "../definitions/JsonValue.js"
import type { RuleInput } from "../definitions/Targeting.js"
import * as Validation from "../definitions/Validation.js"
import { decisionList } from "./DecisionList.js"
import type { FlagScope } from "./Fractional.js"
import { type Path, type Refusal, refuse, Refused, show } from "./Refusal.js"
import { outcomeTree } from "./TargetingTree.js"

/** The targeting PUT body for the chosen environment, without the environment. */
export interface ImportedTargeting {
  readonly enabled: boolean
  readonly defaultVariationKey: string
  readonly offVariationKey: string
  readonly rules: ReadonlyArray<RuleInput>
}

export type FlagTranslation =
  | { readonly _tag: "Translated"; readonly key: string; readonly flag: CreateFlagInput; readonly targeting: ImportedTargeting }
  | { readonly _tag: "Refused"; readonly key: string; readonly refusal: Refusal }

/** A file that is not a flagd flag definition at all: nothing of it can be imported. */
export class FlagdDocumentError {
  readonly _tag = "FlagdDocumentError"
  constructor(readonly message: string) {}
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const DOCUMENT_FIELDS = new Set(["$schema", "flags", "$evaluators", "metadata"])
const FLAG_FIELDS = new Set(["state", "variants", "defaultVariant", "targeting", "metadata"])

/** Replaces each `{"$ref": NAME}` by the shared evaluator NAME (itself resolved), as flagd does before parsing. */
const resolveRefs = (value: unknown, evaluators: Record<string, unknown>, path: Path, seen: ReadonlyArray<string>): unknown => {
  if (Array.isArray(value)) return value.map((v, i) => resolveRefs(v, evaluators, [...path, i], seen))
  if (!isRecord(value)) return value
  const keys = Object.keys(value)
  if (keys.length === 1 && keys[0] === "$ref") {
    const name = value.$ref
    if (typeof name !== "string" || !Object.prototype.hasOwnProperty.call(evaluators, name)) {
      return refuse([...path, "$ref"], `${show(name)} names no shared evaluator in "$evaluators"`)
    }
    if (seen.includes(name)) return refuse([...path, "$ref"], `the shared evaluator ${JSON.stringify(name)} refers to itself`)
    return resolveRefs(evaluators[name], evaluators, path, [...seen, name])
  }
  return Object.fromEntries(keys.map((k) => [k, resolveRefs(value[k], evaluators, [...path, k], seen)]))
}

/** The Flagport type of a flag whose variants hold these values; refuses a mix. */
const typeOf = (values: ReadonlyArray<unknown>, path: Path): FlagType => {
  const kinds = new Set(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "object" : typeof v)))
  if (kinds.size !== 1) return refuse(path, `the variants mix types (${[...kinds].sort().join(", ")}); a Flagport flag has one type`)
  const kind = [...kinds][0]!
  if (kind === "boolean" || kind === "string" || kind === "number") return kind
  if (kind === "object") return "json"
  return refuse(path, `variant values of type ${kind} cannot be imported`)
}

const translateFlag = (key: string, definition: unknown, evaluators: Record<string, unknown>): FlagTranslation => {
  const path: Path = ["flags", key]
  if (!KEY_PATTERN.test(key)) return refuse(path, `the flag key is not a Flagport key (letters, digits, ".", "_", "-"; up to 128; starting with a letter or digit)`)
  if (!isRecord(definition)) return refuse(path, `a flag must be an object, got ${show(definition)}`)
  for (const field of Object.keys(definition)) {
    if (!FLAG_FIELDS.has(field)) refuse([...path, field], `unknown field ${JSON.stringify(field)} in a flagd flag`)
  }
  const { state, variants, defaultVariant } = definition
  if (state === "DISABLED") {
    return refuse([...path, "state"], `a DISABLED flag answers the caller's default value in flagd; a Flagport flag always serves one of its variations (switch it to ENABLED, or leave it out)`)
  }
  if (state !== "ENABLED") return refuse([...path, "state"], `"state" must be "ENABLED" or "DISABLED", got ${show(state)}`)
  if (!isRecord(variants) || Object.keys(variants).length === 0) return refuse([...path, "variants"], `"variants" must name at least one variant`)
  const names = Object.keys(variants)
  for (const name of names) {
    if (!KEY_PATTERN.test(name)) return refuse([...path, "variants", name], `the variant name is not a Flagport variation key`)
    if (!isJson(variants[name])) return refuse([...path, "variants", name], `the variant value is not JSON`)
  }
  const type = typeOf(names.map((n) => variants[n]), [...path, "variants"])
  if (typeof defaultVariant !== "string") {
    return refuse([...path, "defaultVariant"], `without a default variant flagd answers the caller's default value; a Flagport flag always serves one of its variations`)
  }
  if (!names.includes(defaultVariant)) return refuse([...path, "defaultVariant"], `${show(defaultVariant)} is not a variant of this flag`)
  const scope: FlagScope = {
    flagKey: key,
    defaultVariant,
    variantOf: (literal, at) => {
      if (literal === null) return defaultVariant
      const name = String(literal)
      return names.includes(name) ? name : refuse(at, `the targeting serves ${show(literal)}, which is not a variant of this flag (flagd answers an error there)`)
    }
  }
  const raw = definition.targeting
  let list: { readonly rules: ReadonlyArray<RuleInput>; readonly defaultVariationKey: string } = { rules: [], defaultVariationKey: defaultVariant }
  if (raw !== undefined && !(isRecord(raw) && Object.keys(raw).length === 0)) {
    if (!isRecord(raw)) return refuse([...path, "targeting"], `"targeting" must be a JSONLogic object, got ${show(raw)}`)
    const targeting = resolveRefs(raw, evaluators, [...path, "targeting"], [])
    const tree = outcomeTree(targeting, [...path, "targeting"], scope, { spent: 0, path: [...path, "targeting"] })
    list = decisionList(tree, [...path, "targeting"])
  }
  const flag: CreateFlagInput = { key, name: key, type, variations: names.map((name) => ({ key: name, value: variants[name] })) }
  const targeting: ImportedTargeting = { enabled: true, defaultVariationKey: list.defaultVariationKey, offVariationKey: defaultVariant, rules: list.rules }
  // What the API would refuse (limits on rules and conditions, ...) is this flag's refusal, not a failed import.
  const problems = [
    ...Validation.validateCreateFlag(flag),
    ...Validation.validateTargeting(flag, { environment: "import", prerequisites: [], ...targeting }, new Set())
  ]
  if (problems.length > 0) {
    return refuse([...path, "targeting"], `the translation is more than Flagport takes: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`)
  }
  return { _tag: "Translated", key, flag, targeting }
}

/**
 * Every flag of a parsed flagd document, in file order, translated or refused. Fails only for a
 * document that is no flagd flag definition (not an object, no `flags` object, unknown top-level fields).
 */
export const translateDocument = (document: unknown): Either.Either<ReadonlyArray<FlagTranslation>, FlagdDocumentError> => {
  if (!isRecord(document)) return Either.left(new FlagdDocumentError(`a flagd file is a JSON object with "flags", got ${show(document)}`))
  const unknown = Object.keys(document).find((field) => !DOCUMENT_FIELDS.has(field))
  if (unknown !== undefined) {
    return Either.left(new FlagdDocumentError(`unknown top-level field ${JSON.stringify(unknown)} (a flagd file has "flags", "$evaluators", "metadata", "$schema")`))
  }
  const { flags, $evaluators } = document
  if (!isRecord(flags)) return Either.left(new FlagdDocumentError(`"flags" must be an object of flag definitions`))
  if ($evaluators !== undefined && !isRecord($evaluators)) return Either.left(new FlagdDocumentError(`"$evaluators" must be an object of shared targeting rules`))
  const evaluators = $evaluators ?? {}
  return Either.right(Object.keys(flags).map((key): FlagTranslation => {
    try {
      return translateFlag(key, flags[key], evaluators)
    } catch (e) {
      if (e instanceof Refused) return { _tag: "Refused", key, refusal: e.refusal }
      throw e
    }
  }))
}
