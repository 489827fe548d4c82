/**
 * The limits that bound the work of one request, declared once. This table drives:
 * - write-time validation of flag targeting and segments (`definitions/ValidateConditions.ts`,
 *   `definitions/Validation.ts`),
 * - the evaluation endpoints' context check (`evaluation/ContextLimits.ts`, applied at the HTTP edge),
 * - the meter of the `matches` work of one evaluation (`conditions/RegexBudget.ts`),
 * - the limits table in docs/operations/operating.md (a test compares it with `docsTable()`).
 *
 * Why these numbers: each evaluation step is linear in what it reads (docs/operations/operating.md, "What a
 * request can cost", has the proof), so the worst request is the product of a few of these
 * limits. They are chosen so that product stays far below 50 ms of event-loop time on a small
 * machine while leaving room for every ordinary use (a few dozen attributes, user agents, lists
 * of a few hundred ids). The `matches` operator is the exception that proves it: a pattern's cost
 * per character is its program size, and everyday patterns (a user-agent alternation, a few
 * ordinary patterns in one condition) need hundreds of instructions, so instead of keeping each
 * pattern tiny, one evaluation's total is metered (`regexWorkPerEvaluation`).
 *
 * Pure data with no imports, so the evaluator can load it in any JavaScript runtime.
 */

/**
 * Where a limit is enforced: on the evaluation context (the edge, 400), on a write (400), while
 * one evaluation runs (the flag being evaluated answers ERROR), on an SDK's evaluation report
 * (`POST /v1/insights`, 400), or on what SDKs send for experiments (`POST /v1/exposures`, `POST /v1/track`, 400;
 * a key's hourly budget, 429).
 */
export type LimitScope = "context" | "configuration" | "evaluation" | "report" | "ingest"

interface Declaration {
  readonly value: number
  readonly scope: LimitScope
  /** What is counted, for the docs table and the error messages ("at most N {unit}"). */
  readonly unit: string
  /** One line for the docs table. */
  readonly meaning: string
}

/**
 * What one test of a string costs beyond its characters, in the unit of `regexWorkPerEvaluation`:
 * the matcher's set-up (about 60 to 100 steps' worth, measured in docs/operations/benchmarks.md), so that many
 * tests of tiny strings are metered too.
 */
export const REGEX_TEST_OVERHEAD = 64

export const LIMITS = {
  contextAttributes: {
    value: 100,
    scope: "context",
    unit: "attributes",
    meaning: "entries in `context.attributes`"
  },
  contextArrayLength: {
    value: 100,
    scope: "context",
    unit: "elements",
    meaning: "elements of one array, or entries of one object, anywhere in an attribute value"
  },
  contextStringLength: {
    value: 1024,
    scope: "context",
    unit: "characters",
    meaning: "characters (UTF-16 code units) of one string in the context: the key, attribute names, string values"
  },
  contextDepth: {
    value: 8,
    scope: "context",
    unit: "levels",
    meaning: "arrays and objects nested inside one attribute value"
  },
  contextSize: {
    value: 8192,
    scope: "context",
    unit: "characters",
    meaning: "characters of the whole context's JSON encoding"
  },
  rulesPerConfiguration: {
    value: 100,
    scope: "configuration",
    unit: "rules",
    meaning: "rules in one flag's configuration for one environment"
  },
  conditionsPerRule: {
    value: 20,
    scope: "configuration",
    unit: "conditions",
    meaning: "conditions in one rule"
  },
  listsPerGroup: {
    value: 20,
    scope: "configuration",
    unit: "lists",
    meaning: "lists of one `anyOf` group (a group counts as one condition of its rule or segment)"
  },
  conditionsPerList: {
    value: 20,
    scope: "configuration",
    unit: "conditions",
    meaning: "conditions in one list of an `anyOf` group"
  },
  conditionsPerSegment: {
    value: 50,
    scope: "configuration",
    unit: "conditions",
    meaning: "conditions in one segment"
  },
  valuesPerCondition: {
    value: 500,
    scope: "configuration",
    unit: "values",
    meaning: "values of one condition"
  },
  conditionStringLength: {
    value: 256,
    scope: "configuration",
    unit: "characters",
    meaning: "characters of one string value of a condition (a regular expression included)"
  },
  regexSizePerCondition: {
    value: 1000,
    scope: "configuration",
    unit: "RE2 instructions",
    meaning:
      "compiled size of one `matches` condition: its patterns as one RE2 alternation, in RE2 program instructions (`^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$` is 27, `[a-z]{0,99}` about 200)"
  },
  regexWorkPerEvaluation: {
    value: 1_500_000,
    scope: "evaluation",
    unit: "instruction-characters",
    meaning:
      `what the \`matches\` conditions of one evaluation (one request, all its flags) may read: each test of a string costs its condition's program size x (the string's length + 1), plus ${REGEX_TEST_OVERHEAD}; a flag whose test would go past it answers ERROR`
  },
  segmentKeysPerList: {
    value: 1_000_000,
    scope: "configuration",
    unit: "keys",
    meaning: "keys of one segment's `included` or `excluded` list (an upload counts the keys it sends, duplicates included)"
  },
  segmentKeyLength: {
    value: 256,
    scope: "configuration",
    unit: "characters",
    meaning: "characters of one key in a segment's list"
  },
  segmentKeysPerPatch: {
    value: 10_000,
    scope: "configuration",
    unit: "keys",
    meaning: "keys of `add`, and of `remove`, in one change of a segment's list"
  },
  prerequisitesPerConfiguration: {
    value: 20,
    scope: "configuration",
    unit: "prerequisites",
    meaning: "prerequisites of one flag's configuration for one environment"
  },
  prerequisiteDepth: {
    value: 10,
    scope: "configuration",
    unit: "levels",
    meaning: "prerequisites of prerequisites: the longest chain from a flag through the flags it requires"
  },
  prerequisiteEvaluations: {
    value: 1000,
    scope: "configuration",
    unit: "flag evaluations",
    meaning: "flag evaluations one evaluation may need through its prerequisites, counting a flag required twice twice"
  },
  // An SDK report is a claim nobody can check, so what one may claim is bounded: far above any
  // real process (a million evaluations of one flag per second), low enough that no sum of
  // claims reaches the integers storage and JavaScript keep exactly (Number.MAX_SAFE_INTEGER).
  reportEntries: {
    value: 1000,
    scope: "report",
    unit: "entries",
    meaning: "entries (flag, variation, count) in one report"
  },
  reportEntryCount: {
    value: 1_000_000_000,
    scope: "report",
    unit: "evaluations",
    meaning: "`count` of one entry"
  },
  reportFlagRate: {
    value: 1_000_000,
    scope: "report",
    unit: "evaluations per second",
    meaning: "evaluations of one flag (all its variations) per second of the report's window `from`..`to` (a window shorter than 1 s counts as 1 s)"
  },
  reportTotal: {
    value: 10_000_000_000,
    scope: "report",
    unit: "evaluations",
    meaning: "evaluations in one report, all entries together"
  },
  reportKeyHour: {
    value: 100_000_000_000,
    scope: "report",
    unit: "evaluations",
    meaning: "evaluations one key may report for one hour (the hour of `to`), all its reports to one server together"
  },
  reportAge: {
    value: 48,
    scope: "report",
    unit: "hours",
    meaning: "how far back `from` may be; counts for older hours are refused"
  },
  reportClockSkew: {
    value: 300,
    scope: "report",
    unit: "seconds",
    meaning: "how far `to` may be ahead of the server's clock (an SDK's clock may run ahead; its counts then land in the current hour)"
  },
  // Exposures come from public client keys too: each item is bounded (a unit of at most 256
  // characters, a recent timestamp), and so is what one key may send per hour, so that no client
  // fills the database or holds the writer.
  ingestItems: {
    value: 1000,
    scope: "ingest",
    unit: "items",
    meaning: "exposures or metric events in one request"
  },
  ingestUnitLength: {
    value: 256,
    scope: "ingest",
    unit: "characters",
    meaning: "length of a unit (the value a rollout buckets by)"
  },
  ingestAge: {
    value: 24,
    scope: "ingest",
    unit: "hours",
    meaning: "how far back an item's `timestamp` may be"
  },
  ingestClockSkew: {
    value: 300,
    scope: "ingest",
    unit: "seconds",
    meaning: "how far an item's `timestamp` may be ahead of the server's clock"
  },
  ingestKeyHour: {
    value: 100_000_000,
    scope: "ingest",
    unit: "items",
    meaning: "items one key may send in one clock hour, all its requests to one server together (429 past it)"
  },
  // A metric event's value is summed per unit: bounded so that no sum or sum of squares can
  // overflow a double however many events a unit sends (docs/guide/experiments.md).
  ingestValue: {
    value: 1_000_000_000_000,
    scope: "ingest",
    unit: "in absolute value",
    meaning: "a metric event's `value` (finite)"
  }
} as const satisfies Record<string, Declaration>

export type LimitName = keyof typeof LIMITS

/** The value of a limit. */
export const limit = (name: LimitName): number => LIMITS[name].value

/** The problem message for a count or length above a limit: "must have at most 100 rules". */
export const atMost = (name: LimitName): string => {
  const l: Declaration = LIMITS[name]
  return `must have at most ${l.value.toLocaleString("en-US")} ${l.unit}`
}

/** The problem message for a string above a length limit: "must be at most 256 characters". */
export const atMostLength = (name: LimitName): string => {
  const l: Declaration = LIMITS[name]
  return `must be at most ${l.value.toLocaleString("en-US")} ${l.unit}`
}

const WHERE: Record<LimitScope, string> = {
  context: "evaluation context",
  configuration: "targeting, segments",
  evaluation: "one evaluation",
  report: "`POST /v1/insights`",
  ingest: "`POST /v1/exposures`, `POST /v1/track`"
}

/** The Markdown table of docs/operations/operating.md, generated from the declaration. */
export const docsTable = (): string =>
  [
    "| limit | at most | applies to | what is counted |",
    "|---|---|---|---|",
    ...(Object.keys(LIMITS) as Array<LimitName>).map((name) => {
      const l: Declaration = LIMITS[name]
      const where = WHERE[l.scope]
      return `| \`${name}\` | ${l.value.toLocaleString("en-US")} ${l.unit} | ${where} | ${l.meaning} |`
    })
  ].join("\n")
