/**
 * The flag page's release plans in one environment: the plan that holds the environment (running,
 * paused or stopped by a guardrail) or a draft, with its timeline (steps done, the current one,
 * the next and when, the rest and when they would come), its guardrails' figures now (`GET
 * .../guardrails`; a harm's own figures once harmed), and what people who may write do with it
 * (start, pause, resume, cancel; edit or delete a draft). A viewer sees the same, with no button.
 * The editor (PlanEditor) makes or changes a draft, from a template or by hand. A refusal shows the
 * API's message as it is worded. While a plan runs the panel reads it again every few seconds.
 */
import { useEffect, useId, useState } from "preact/hooks"
import { ApiError, projectPath, request, seg } from "../lib/api.js"
import { proposePlan } from "../lib/changes.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import {
  changeText,
  draftOfPlan,
  holdText,
  NEW_GUARDRAIL,
  newDraft,
  PLAN_STATUS_WORDS,
  PLAN_TEMPLATES,
  type PlanDraft,
  planBody,
  planRules,
  pauseWords,
  stepDrafts,
  timeline,
  verdictText,
  weightText
} from "../lib/releasePlans.js"
import type { Flag, GuardrailCheck, List, ReleasePlan } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field, Group } from "./Field.js"
import { GuardrailsEditor } from "./MetricsEditor.js"
import { Waiting } from "./Status.js"
import { Table } from "./Table.js"

/** How often a running plan is read again (its steps may be seconds apart). */
const REFRESH_MS = 2_000

/** The plans that hold their environment: at most one per flag and environment. */
const HOLDING: ReadonlyArray<ReleasePlan["status"]> = ["running", "paused", "harmed"]

const plansPath = (projectId: string, flagKey: string) => projectPath(projectId, `/flags/${seg(flagKey)}/release-plans`)

interface Shown {
  readonly plans: ReadonlyArray<ReleasePlan>
  /** The figures of the holding plan's guardrails now, when it has guardrails. */
  readonly figures: GuardrailCheck | null
}

const loadPlans = async (projectId: string, flagKey: string, environment: string): Promise<Shown> => {
  const all = await request<List<ReleasePlan>>("GET", plansPath(projectId, flagKey))
  const plans = all.data.filter((p) => p.environment === environment)
  const holding = plans.find((p) => HOLDING.includes(p.status))
  const figures =
    holding === undefined || holding.guardrails.length === 0
      ? null
      : await request<GuardrailCheck>("GET", `${plansPath(projectId, flagKey)}/${seg(holding.id)}/guardrails`)
  return { plans, figures }
}

export const ReleasePlansPanel = (props: { projectId: string; flag: Flag; environment: string; writes: boolean }) => {
  const { projectId, flag, environment } = props
  // Read again when the flag changes (a step is a targeting write, seen live by the page).
  const { loaded, reload } = useLoad(() => loadPlans(projectId, flag.key, environment), [projectId, flag.key, environment, flag.version])
  // The editor: closed, a new draft, or the draft with this id.
  const [editing, setEditing] = useState<"new" | string | null>(null)
  // The last action's words, about the plan as that action left it: once the plan has changed
  // since (a step, a harm), they no longer describe it and are not shown.
  const [status, setStatus] = useState<{ readonly words: string; readonly planId: string; readonly version: number } | null>(null)
  const running = loaded.state === "ready" && loaded.data.plans.some((p) => p.status === "running")
  useEffect(() => {
    if (!running) return
    const timer = setInterval(reload, REFRESH_MS)
    return () => clearInterval(timer)
  }, [running, reload])
  const id = useId()
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { plans, figures } = loaded.data
  const holding = plans.find((p) => HOLDING.includes(p.status))
  const drafts = plans.filter((p) => p.status === "draft")
  const ended = plans.filter((p) => p.status === "completed" || p.status === "cancelled")
  const rules = planRules(flag.configs.find((c) => c.environmentKey === environment)?.rules ?? [])
  const saved = (words: string) => (plan: ReleasePlan) => {
    setEditing(null)
    setStatus({ words: words.replace("{weight}", weightText(plan.currentStep === null ? 0 : plan.steps[plan.currentStep]?.weight ?? 0)), planId: plan.id, version: plan.version })
    reload()
  }
  const editor = (plan: ReleasePlan | null) => (
    <PlanEditor
      projectId={projectId}
      flag={flag}
      environment={environment}
      rules={rules}
      plan={plan}
      onSaved={saved(plan === null ? "Release plan created as a draft." : "Draft saved.")}
      onCancel={() => setEditing(null)}
    />
  )
  return (
    <section class="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Release plans in {environment}</h2>
      <p class="muted">
        A release plan ramps one variation of a rule up step by step, and pauses or rolls back when a guardrail metric shows harm.
      </p>
      <p role="status" class="status">{status === null || (plans.find((p) => p.id === status.planId)?.version ?? status.version) !== status.version ? "" : status.words}</p>
      {holding === undefined ? null : <PlanView key={holding.id} projectId={projectId} flagKey={flag.key} plan={holding} figures={figures} writes={props.writes} onChanged={(words) => saved(words)} />}
      {drafts.map((d) =>
        editing === d.id ? (
          <div key={d.id}>{editor(d)}</div>
        ) : (
          <PlanView key={d.id} projectId={projectId} flagKey={flag.key} plan={d} figures={null} writes={props.writes} onChanged={(words) => saved(words)} onEdit={() => setEditing(d.id)} />
        )
      )}
      {plans.length === 0 ? <p>No release plan for {flag.key} in {environment} yet.</p> : null}
      {!props.writes ? null : editing === "new" ? (
        editor(null)
      ) : (
        <div class="actions">
          <button type="button" onClick={() => (setStatus(null), setEditing("new"))}>New release plan</button>
        </div>
      )}
      {ended.length === 0 ? null : (
        <Table caption={`Earlier release plans of ${flag.key} in ${environment}`}>
          <thead>
            <tr><th scope="col">Ramped</th><th scope="col">Steps</th><th scope="col">Status</th><th scope="col">Ended</th></tr>
          </thead>
          <tbody>
            {ended.map((p) => (
              <tr key={p.id}>
                <td>{p.variationKey}</td>
                <td>{p.steps.map((s) => weightText(s.weight)).join(", ")}</td>
                <td>{PLAN_STATUS_WORDS[p.status]}</td>
                <td>{when(p.completedAt ?? p.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  )
}

const STATE_WORDS = { done: "done", current: "current", next: "next", later: "later" } as const

/** One plan: where it stands, its timeline, its guardrails, and its buttons. */
const PlanView = (props: {
  projectId: string
  flagKey: string
  plan: ReleasePlan
  figures: GuardrailCheck | null
  writes: boolean
  onChanged: (words: string) => (plan: ReleasePlan) => void
  onEdit?: () => void
}) => {
  const { plan } = props
  const id = useId()
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const path = `${plansPath(props.projectId, props.flagKey)}/${seg(plan.id)}`
  const act = async (what: string, words: string, body?: unknown) => {
    try {
      const after = await request<ReleasePlan>("POST", `${path}/${what}`, body)
      setProblems(NO_PROBLEMS)
      props.onChanged(words)(after)
    } catch (error) {
      if (error instanceof ApiError && error.code === "change_request_required" && (what === "start" || what === "resume")) return offerRequest(what, error)
      setProblems(fromError(error))
    }
  }
  // In a protected environment a person's start (or resume after harm) is proposed, then approved.
  const offerRequest = async (action: "start" | "resume", refused: ApiError) => {
    if (!(await ask(`${refused.message} Propose to ${action} this plan as a change request now?`))) return setProblems(fromError(refused))
    try {
      const created = await proposePlan(props.projectId, { environment: plan.environment, flagKey: props.flagKey, planId: plan.id, action })
      setProblems(NO_PROBLEMS)
      props.onChanged(`Proposed as change request ${created.id}: the plan ${action === "start" ? "starts" : "resumes"} when it is approved and applied.`)(plan)
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  const resume = async () => {
    if (plan.pausedBy === "targetingChanged") {
      if (!(await ask(`Resume the plan from ${props.flagKey}'s targeting as it is now? Its next step sets the rule's weights again.`))) return
      return act("resume", "Release plan resumed.", { confirm: true })
    }
    return act("resume", "Release plan resumed.")
  }
  const cancel = async () => {
    if (!(await ask(`Cancel the release plan of ${plan.variationKey}? The rule keeps the weight it has, and the plan cannot run again.`))) return
    return act("cancel", "Release plan cancelled; the rule keeps {weight}.")
  }
  const remove = async () => {
    if (!(await ask("Delete this draft?"))) return
    try {
      await request<void>("DELETE", path)
      props.onChanged("Draft deleted.")(plan)
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  const steps = timeline(plan)
  const current = plan.currentStep === null ? null : plan.steps[plan.currentStep]
  const last = plan.currentStep !== null && plan.currentStep === plan.steps.length - 1
  const check = plan.status === "harmed" && plan.harm !== null ? plan.harm.check : props.figures
  return (
    <article class="plan" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Ramping <code>{plan.variationKey}</code>: {PLAN_STATUS_WORDS[plan.status]}
      </h3>
      <ErrorSummary problems={problems} />
      <p>
        {current === null || current === undefined ? "The ramped variation has 0% of the rule." : `The ramped variation has ${weightText(current.weight)} of the rule.`}
        {plan.status === "running" && last && plan.nextStepAt !== null ? ` The plan completes ${when(plan.nextStepAt)}.` : ""}
        {" "}On harm it {plan.onHarm === "rollback" ? "rolls back to 0%" : "pauses at its weight"}; alpha {plan.alpha}.
      </p>
      {plan.status === "paused" ? <p>{pauseWords(plan.pausedBy)}{plan.failure === null ? "" : ` ${plan.failure}`}</p> : null}
      {plan.harm === null || plan.status !== "harmed" ? null : (
        <p class="error-summary" role="note">
          A guardrail showed harm {when(plan.harm.at)} at {weightText(plan.harm.weight)}: the plan {plan.harm.action === "rolledBack" ? "rolled back to 0%" : "paused there"}.
        </p>
      )}
      <ol class="plan-steps" aria-label="Steps">
        {steps.map((s) => (
          <li key={s.index} class={`plan-step ${s.state}`} aria-current={s.state === "current" ? "step" : undefined}>
            <strong>{weightText(s.weight)}</strong> for {holdText(s.holdMinutes)}: {STATE_WORDS[s.state]}
            {s.at === null ? "" : s.state === "next" ? `, due ${when(s.at)}` : `, about ${when(s.at)}`}
          </li>
        ))}
      </ol>
      {check === null || check.guardrails.length === 0 ? (
        plan.guardrails.length === 0 ? <p class="muted">No guardrail: the plan advances on time alone.</p> : null
      ) : (
        <Table caption={plan.status === "harmed" ? "The guardrails when harm was found" : "The guardrails now"}>
          <thead>
            <tr>
              <th scope="col">Guardrail</th>
              <th scope="col">Ramped: units, mean</th>
              <th scope="col">The rest: units, mean</th>
              <th scope="col">Change (always-valid interval)</th>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {check.guardrails.map((g) => (
              <tr key={g.metricKey}>
                <th scope="row">{g.metricKey} <span class="muted">({g.goal === "decrease" ? "lower is better" : "higher is better"})</span></th>
                <td>{g.treatment.units}, {Number(g.treatment.mean.toPrecision(3))}</td>
                <td>{g.control.units}, {Number(g.control.mean.toPrecision(3))}</td>
                <td>{changeText(g)}</td>
                <td>{verdictText(g, check.minimumUnits)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {!props.writes ? null : (
        <div class="actions">
          {plan.status === "draft" ? (
            <>
              <button type="button" onClick={() => act("start", "Release plan started: its first step applies within a second.")}>Start plan</button>
              {props.onEdit === undefined ? null : <button type="button" class="secondary" onClick={props.onEdit}>Edit draft</button>}
              <button type="button" class="secondary" onClick={remove}>Delete draft</button>
            </>
          ) : null}
          {plan.status === "running" ? <button type="button" onClick={() => act("pause", "Release plan paused at {weight}.")}>Pause plan</button> : null}
          {plan.status === "paused" || plan.status === "harmed" ? <button type="button" onClick={resume}>Resume plan</button> : null}
          {HOLDING.includes(plan.status) ? <button type="button" class="danger" onClick={cancel}>Cancel plan</button> : null}
        </div>
      )}
    </article>
  )
}

const ON_HARM: ReadonlyArray<readonly [PlanDraft["onHarm"], string]> = [
  ["pause", "Pause at its weight"],
  ["rollback", "Roll back to 0%"]
]

/** A new draft (`plan` null) or a draft's change: the rule and variation, the steps (a template or by hand), the guardrails, onHarm and alpha. */
const PlanEditor = (props: {
  projectId: string
  flag: Flag
  environment: string
  rules: ReadonlyArray<{ readonly id: string; readonly label: string }>
  plan: ReleasePlan | null
  onSaved: (plan: ReleasePlan) => void
  onCancel: () => void
}) => {
  const { flag, plan } = props
  const [draft, setDraft] = useState<PlanDraft>(() => (plan === null ? newDraft(props.rules[0]?.id ?? "", flag.variations[0]?.key ?? "") : draftOfPlan(plan)))
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const set = (change: Partial<PlanDraft>) => setDraft((d) => ({ ...d, ...change }))
  const setStep = (i: number, change: Partial<PlanDraft["steps"][number]>) => set({ steps: draft.steps.map((s, j) => (j === i ? { ...s, ...change } : s)) })
  const title = plan === null ? "New release plan" : "Edit the draft"
  const submit = async (e: Event) => {
    e.preventDefault()
    const path = plansPath(props.projectId, flag.key)
    try {
      props.onSaved(
        plan === null
          ? await request<ReleasePlan>("POST", path, { environment: props.environment, ...planBody(draft) })
          : await request<ReleasePlan>("PATCH", `${path}/${seg(plan.id)}`, planBody(draft))
      )
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <form class="card" aria-label={title} onSubmit={submit} noValidate>
      <h3>{title}</h3>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Rule" hint="The rule whose percentage the plan sets" problems={at(problems, "ruleId")} class="grow">
          {(ctl) => (
            <select {...ctl} value={draft.ruleId} onChange={(e) => set({ ruleId: e.currentTarget.value })}>
              {props.rules.length === 0 ? <option value="">No rule in {props.environment}</option> : null}
              {props.rules.map((r) => <option key={r.id} value={r.id}>{r.label}</option>)}
            </select>
          )}
        </Field>
        <Field label="Variation to ramp up" problems={at(problems, "variationKey")}>
          {(ctl) => (
            <select {...ctl} value={draft.variationKey} onChange={(e) => set({ variationKey: e.currentTarget.value })}>
              {flag.variations.map((v) => <option key={v.key} value={v.key}>{v.name ?? v.key}</option>)}
            </select>
          )}
        </Field>
      </div>
      <Group legend="Steps" problems={at(problems, "steps")}>
        <p class="muted">Each step gives the variation its share of the rule, then holds it; shares rise, holds are at least 0.05 minutes (3 seconds).</p>
        <div class="actions">
          {PLAN_TEMPLATES.map((t) => (
            <button key={t.key} type="button" class="secondary" onClick={() => set({ steps: stepDrafts(t.steps) })}>Use {t.label}</button>
          ))}
        </div>
        {draft.steps.map((s, i) => (
          <div class="row" key={i}>
            <Field label={`Step ${i + 1}: share (%)`} problems={at(problems, `steps[${i}].weight`)}>
              {(ctl) => <input {...ctl} type="number" min="0.001" max="100" step="any" value={s.percent} onInput={(e) => setStep(i, { percent: e.currentTarget.value })} />}
            </Field>
            <Field label={`Step ${i + 1}: hold (minutes)`} problems={at(problems, `steps[${i}].holdMinutes`)}>
              {(ctl) => <input {...ctl} type="number" min="0.05" step="any" value={s.holdMinutes} onInput={(e) => setStep(i, { holdMinutes: e.currentTarget.value })} />}
            </Field>
            {draft.steps.length > 1 ? (
              <button type="button" class="secondary small" onClick={() => set({ steps: draft.steps.filter((_, j) => j !== i) })}>Remove step {i + 1}</button>
            ) : null}
          </div>
        ))}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => set({ steps: [...draft.steps, { percent: "100", holdMinutes: "60" }] })}>Add step</button>
        </div>
      </Group>
      <GuardrailsEditor metrics={draft.guardrails} problems={problems} fresh={NEW_GUARDRAIL} onChange={(guardrails) => set({ guardrails })} />
      <div class="row">
        <Field label="On harm" problems={at(problems, "onHarm")}>
          {(ctl) => (
            <select {...ctl} value={draft.onHarm} onChange={(e) => set({ onHarm: e.currentTarget.value as PlanDraft["onHarm"] })}>
              {ON_HARM.map(([k, words]) => <option key={k} value={k}>{words}</option>)}
            </select>
          )}
        </Field>
        <Field label="Alpha" hint="The chance of stopping a change that does no harm, e.g. 0.05" problems={at(problems, "alpha")}>
          {(ctl) => <input {...ctl} type="number" step="0.01" min="0" max="0.5" value={draft.alpha} onInput={(e) => set({ alpha: e.currentTarget.value })} />}
        </Field>
      </div>
      <div class="actions">
        <button type="submit">{plan === null ? "Create draft" : "Save draft"}</button>
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  )
}
