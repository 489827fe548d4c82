/**
 * The translation tables of docs/guide/coming-from-flagd.md, generated from the tables the translation
 * runs on (Conditions.ts) plus the structure of a flag file, so the page cannot drift from the
 * code (test/docs/ComingFromFlagd.test.ts compares them).
 */
import { CONDITION_OPERATORS, REFUSED_OPERATORS } from "./Conditions.js"

/** A flag file's structure: where each part goes (Refusal reasons for the rest are in FlagdDocument.ts). */
const STRUCTURE: ReadonlyArray<readonly [string, string]> = [
  ["a flag (`flags.KEY`)", "a flag with the same key (its name is the key)"],
  ["`variants`", "variations, keyed by the variant names, in file order; the type from the values (boolean, string, number, or json for objects)"],
  ["`state: ENABLED`", "the flag enabled in the chosen environment (disabled, as every new flag, in the others)"],
  ["`defaultVariant`", "the off variation, and what a `null` branch serves"],
  ["`targeting` absent or `{}`", "no rules: the default variation is the default variant"],
  ["`if` chain", "ordered rules; the default variation is what the chain serves when no condition holds"],
  ["a branch returning a variant name (or `true`, `1`: its text)", "a rule serving that variation"],
  ["a `null` branch", "a rule serving the default variant"],
  ["`fractional`", "a percentage rollout with the same percentages (thousandths of a percent), bucketed by the key, the `var`, or the `var` joined to `$flagd.flagKey`"],
  ["`{\"var\": \"targetingKey\"}`", "the context key (`attribute: \"key\"`)"],
  ["`{\"var\": \"name\"}` as a condition", "`notIn` `[false, 0, \"\"]`: present and truthy"],
  ["`$evaluators` and `{\"$ref\": NAME}`", "substituted where they are used"],
  ["`metadata`", "not imported (it does not change evaluation)"]
]

const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`

/** Three Markdown tables: the file's structure, the condition operators, the refused operators. */
export const docsTables = (): string =>
  [
    row(["flagd", "Flagport"]),
    "|---|---|",
    ...STRUCTURE.map(([flagd, flagport]) => row([flagd, flagport])),
    "",
    row(["flagd condition", "Flagport"]),
    "|---|---|",
    ...Object.values(CONDITION_OPERATORS).map((r) => row([r.flagd, r.flagport])),
    "",
    row(["refused operator", "why"]),
    "|---|---|",
    ...Object.entries(REFUSED_OPERATORS).map(([operator, reason]) => row([`\`${operator}\``, reason]))
  ].join("\n")
