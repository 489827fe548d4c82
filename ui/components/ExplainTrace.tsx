/**
 * Why a context got what it got: the trace of `POST /v1/explain` as nested lists a person reads
 * top to bottom, in the order the evaluator went: prerequisites (each with its own trace), then
 * the rules tried, each condition with what the context held and whether it matched (an "any of
 * these" block with the options tried, in order, and the one that held), and the rollout's
 * bucket. Only the steps the evaluator took are in the trace, so the list ends where
 * the answer was decided; the last line says what decided it.
 */
import type { ComponentChildren } from "preact"
import { showValue } from "../lib/format.js"
import type { ConditionTrace, EvaluationResult, FlagTrace, GroupTrace, RuleTrace, SegmentConditionTrace, SegmentGroupTrace } from "../lib/types.js"

const Verdict = ({ ok, yes, no }: { ok: boolean; yes: string; no: string }) => <strong class={ok ? "trace-yes" : "trace-no"}>{ok ? yes : no}</strong>

const values = (vs: ReadonlyArray<unknown>) => vs.map((v) => JSON.stringify(v)).join(", ")

type AnyConditionTrace = ConditionTrace | SegmentConditionTrace
type AnyGroupTrace = GroupTrace | SegmentGroupTrace

/** A condition or a group, as the trace holds either (a group is told by its `anyOf`). */
const Item = ({ c }: { c: AnyConditionTrace | AnyGroupTrace }) => ("anyOf" in c ? <Group g={c} /> : <Condition c={c} />)

/** The options tried, in order, up to the first that held: the trace stops there, as the evaluator did. */
const Group = ({ g }: { g: AnyGroupTrace }) => (
  <li>
    any of these →{" "}
    <Verdict ok={g.matched} yes={`matched (option ${(g.matchedList ?? 0) + 1} holds)`} no="did not match (no option holds)" />
    <ul>
      {g.anyOf.map((list, j) => (
        <li key={j}>
          option {j + 1}: <Verdict ok={list.matched} yes="all of its conditions hold" no="not every condition holds" />
          {list.conditions.length === 0 ? null : <ul>{list.conditions.map((c, k) => <Condition key={k} c={c} />)}</ul>}
        </li>
      ))}
    </ul>
  </li>
)

const Condition = ({ c }: { c: AnyConditionTrace }) => (
  <li>
    {c.negate ? "not " : ""}
    {!("segments" in c) || c.segments === undefined ? (
      <>
        <code>{c.attribute}</code> {c.operator} <code>{values(c.values)}</code>: the context has{" "}
        {c.absent === true ? "no such attribute" : <code>{JSON.stringify(c.value)}</code>}
      </>
    ) : (
      <>
        {c.operator} <code>{values(c.values)}</code>
      </>
    )}
    {" → "}
    <Verdict ok={c.matched} yes="matched" no="did not match" />
    {!("segments" in c) || c.segments === undefined || c.segments.length === 0 ? null : (
      <ul>
        {c.segments.map((s) => (
          <li key={s.segmentKey}>
            segment <code>{s.segmentKey}</code>: <Verdict ok={s.matched} yes="in it" no="not in it" />
            {s.conditions.length === 0 ? null : <ul>{s.conditions.map((sc, i) => <Item key={i} c={sc} />)}</ul>}
          </li>
        ))}
      </ul>
    )}
  </li>
)

const Rule = ({ r }: { r: RuleTrace }) => (
  <li>
    Rule {r.ruleIndex + 1} <span class="muted">({r.ruleId})</span>: {r.conditions.length === 0 && r.matched ? "no conditions, so it applies to every context" : <Verdict ok={r.matched} yes="all conditions hold" no="not every condition holds" />}
    {r.conditions.length === 0 ? null : <ul>{r.conditions.map((c, i) => <Item key={i} c={c} />)}</ul>}
    {r.rollout === undefined ? null : (
      <p class="trace-rollout">
        Rollout by <code>{r.rollout.bucketBy}</code>
        {r.rollout.absent ? ": the context has no such attribute, so the rule is skipped" : <> = <code>{JSON.stringify(r.rollout.value)}</code></>}
        {r.rollout.bucket === null ? null : (
          <>
            : bucket {r.rollout.bucket.toLocaleString("en")} of 100,000 → <code>{r.rollout.variationKey ?? "none"}</code>
          </>
        )}
      </p>
    )}
  </li>
)

/** What decided the answer, in words. */
export const decidedBy = (result: EvaluationResult): string => {
  const r = result.reason
  const served = result.variationKey === null ? "no variation" : `variation ${result.variationKey} (${showValue(result.value)})`
  switch (r.kind) {
    case "OFF":
      return `The flag is disabled here, so it serves its off variation: ${served}. Nothing else is checked.`
    case "PREREQUISITE_FAILED":
      return `Prerequisite ${r.prerequisiteKey ?? ""} is not met, so it serves its off variation: ${served}.`
    case "RULE_MATCH":
      return `Rule ${(r.ruleIndex ?? 0) + 1} decided: ${served}.`
    case "FALLTHROUGH":
      return `No rule matched, so it serves its default variation: ${served}.`
    case "ERROR":
      return `It cannot be evaluated (${r.error ?? "error"}), so it serves ${served}.`
    default:
      return `${r.kind}: ${served}.`
  }
}

const Section = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <li>
    {title}
    {children}
  </li>
)

export const ExplainTrace = ({ trace, result }: { trace: FlagTrace; result: EvaluationResult }) => (
  <ol class="trace">
    {trace.prerequisites.length === 0 ? null : (
      <Section title="Prerequisites, in order:">
        <ul>
          {trace.prerequisites.map((p) => (
            <li key={p.flagKey}>
              <code>{p.flagKey}</code> must serve <code>{p.variationKey}</code>:{" "}
              {p.result === null ? "no such flag" : <>it serves <code>{p.result.variationKey ?? "nothing"}</code> ({p.result.reason.kind})</>}
              {" → "}
              <Verdict ok={p.met} yes="met" no="not met" />
              {p.trace === null || p.result === null || (p.trace.prerequisites.length === 0 && p.trace.rules.length === 0) ? null : (
                <details>
                  <summary>Why {p.flagKey} serves that</summary>
                  <ExplainTrace trace={p.trace} result={p.result} />
                </details>
              )}
            </li>
          ))}
        </ul>
      </Section>
    )}
    {trace.rules.length === 0 ? null : (
      <Section title="Rules tried, in order:">
        <ul>{trace.rules.map((r) => <Rule key={r.ruleId} r={r} />)}</ul>
      </Section>
    )}
    <li>{decidedBy(result)}</li>
  </ol>
)
