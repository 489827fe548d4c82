/**
 * A new experiment, made from a flag's rollout rule: find the flag, choose the environment, one
 * of the rules there that split units by a percentage rollout, the control among the variations
 * that rule serves, the metrics and the analysis (the API's defaults filled in). The API's
 * refusal shows at the top and next to each field it names; a refused create changes nothing.
 */
import { useState } from "preact/hooks"
import { projectPath, request } from "../lib/api.js"
import { createBody, DEFAULT_ANALYSIS, type ExperimentDraft, NEW_METRIC, rolloutRules } from "../lib/experiments.js"
import { loadFlagPage, NO_FILTER } from "../lib/flagPages.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import { href } from "../lib/router.js"
import type { Analysis, Environment, Experiment, Flag } from "../lib/types.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field, Group } from "./Field.js"
import { MetricsEditor } from "./MetricsEditor.js"

const METHODS: ReadonlyArray<readonly [Analysis["method"], string]> = [
  ["sequential", "Sequential: look at the results any time"],
  ["frequentist", "Frequentist: read once, at the planned size"],
  ["bayesian", "Bayesian: the chance each variation beats the control"]
]

const EMPTY: ExperimentDraft = {
  key: "",
  name: "",
  hypothesis: "",
  flagKey: "",
  environment: "",
  ruleId: "",
  controlVariationKey: "",
  metrics: [NEW_METRIC],
  method: DEFAULT_ANALYSIS.method,
  alpha: String(DEFAULT_ANALYSIS.alpha),
  cuped: DEFAULT_ANALYSIS.cuped,
  preWindowDays: String(DEFAULT_ANALYSIS.preWindowDays),
  plannedUnits: String(DEFAULT_ANALYSIS.plannedUnits)
}

/** The rule and control chosen once the flag or the environment changes: the first rollout rule, the default variation as control when that rule serves it. */
const firstChoice = (flag: Flag | undefined, environment: string): Pick<ExperimentDraft, "ruleId" | "controlVariationKey"> => {
  const rule = rolloutRules(flag, environment)[0]
  const fallback = flag?.configs.find((c) => c.environmentKey === environment)?.defaultVariationKey
  const control = rule === undefined ? "" : rule.served.includes(fallback ?? "") ? (fallback ?? "") : (rule.served[0] ?? "")
  return { ruleId: rule?.id ?? "", controlVariationKey: control }
}

export const ExperimentForm = (props: { projectId: string; environments: ReadonlyArray<Environment>; onCreated: (e: Experiment) => void; onCancel: () => void }) => {
  const [draft, setDraft] = useState<ExperimentDraft>({ ...EMPTY, environment: props.environments[0]?.key ?? "" })
  const [search, setSearch] = useState("")
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const found = useLoad(() => loadFlagPage(props.projectId, { ...NO_FILTER, q: search }, null), [props.projectId, search])
  const flags = found.loaded.state === "ready" ? found.loaded.data.data : []
  // The chosen flag as it was when chosen, so a new search does not lose its rules.
  const [flag, setFlag] = useState<Flag | undefined>(undefined)
  const set = (change: Partial<ExperimentDraft>) => setDraft((d) => ({ ...d, ...change }))
  const rules = rolloutRules(flag, draft.environment)
  const served = rules.find((r) => r.id === draft.ruleId)?.served ?? []

  const chooseFlag = (key: string) => {
    const chosen = flags.find((f) => f.key === key)
    setFlag(chosen)
    set({ flagKey: key, ...firstChoice(chosen, draft.environment) })
  }
  const submit = async (e: Event) => {
    e.preventDefault()
    try {
      props.onCreated(await request<Experiment>("POST", projectPath(props.projectId, "/experiments"), createBody(draft)))
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  return (
    <form class="card" onSubmit={submit} aria-label="New experiment" noValidate>
      <h2>New experiment</h2>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Experiment key" problems={at(problems, "key")}>
          {(ctl) => <input {...ctl} value={draft.key} onInput={(e) => set({ key: e.currentTarget.value })} />}
        </Field>
        <Field label="Experiment name" hint="Empty: the key" problems={at(problems, "name")}>
          {(ctl) => <input {...ctl} value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} />}
        </Field>
      </div>
      <Field label="Hypothesis" hint="What the team expects, e.g. the one-page checkout converts more visitors" problems={at(problems, "hypothesis")}>
        {(ctl) => <textarea {...ctl} rows={2} value={draft.hypothesis} onInput={(e) => set({ hypothesis: e.currentTarget.value })} />}
      </Field>
      <Group legend="What it measures">
        <div class="row">
          <Field label="Find a flag" hint="Part of its key or name">
            {(ctl) => <input {...ctl} type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />}
          </Field>
          <Field label="Flag" problems={at(problems, "flagKey")}>
            {(ctl) => (
              <select {...ctl} value={draft.flagKey} onChange={(e) => chooseFlag(e.currentTarget.value)}>
                <option value="">Choose a flag…</option>
                {flag !== undefined && !flags.some((f) => f.key === flag.key) ? <option value={flag.key}>{flag.key}</option> : null}
                {flags.map((f) => <option key={f.key} value={f.key}>{f.key}{f.name === f.key ? "" : ` (${f.name})`}</option>)}
              </select>
            )}
          </Field>
          <Field label="Environment" problems={at(problems, "environment")}>
            {(ctl) => (
              <select {...ctl} value={draft.environment} onChange={(e) => set({ environment: e.currentTarget.value, ...firstChoice(flag, e.currentTarget.value) })}>
                {props.environments.map((env) => <option key={env.key} value={env.key}>{env.name} ({env.key})</option>)}
              </select>
            )}
          </Field>
        </div>
        {flag !== undefined && rules.length === 0 ? (
          <p role="status">
            No rule of {flag.key} in {draft.environment} splits units by a percentage rollout.{" "}
            <a href={href({ page: "flag", key: flag.key, environment: draft.environment })}>Add one to its targeting</a>, then come back.
          </p>
        ) : null}
        <div class="row">
          <Field label="Rule" hint="Only units this rule served are in the experiment" problems={at(problems, "ruleId")} class="grow">
            {(ctl) => (
              <select {...ctl} value={draft.ruleId} onChange={(e) => set({ ruleId: e.currentTarget.value, controlVariationKey: rules.find((r) => r.id === e.currentTarget.value)?.served[0] ?? "" })}>
                {rules.length === 0 ? <option value="">No rule with a percentage rollout</option> : null}
                {rules.map((r) => <option key={r.id} value={r.id}>{r.label}</option>)}
              </select>
            )}
          </Field>
          <Field label="Control variation" hint="What every other variation is compared with" problems={at(problems, "controlVariationKey")}>
            {(ctl) => (
              <select {...ctl} value={draft.controlVariationKey} onChange={(e) => set({ controlVariationKey: e.currentTarget.value })}>
                {served.length === 0 ? <option value="">Choose a rule first</option> : null}
                {served.map((v) => <option key={v} value={v}>{v}</option>)}
              </select>
            )}
          </Field>
        </div>
      </Group>
      <MetricsEditor metrics={draft.metrics} problems={problems} onChange={(metrics) => set({ metrics })} />
      <Group legend="Analysis" problems={at(problems, "analysis")}>
        <div class="row">
          <Field label="Method" problems={at(problems, "analysis.method")}>
            {(ctl) => (
              <select {...ctl} value={draft.method} onChange={(e) => set({ method: e.currentTarget.value as Analysis["method"] })}>
                {METHODS.map(([m, words]) => <option key={m} value={m}>{words}</option>)}
              </select>
            )}
          </Field>
          <Field label="Alpha" hint="The false alarm rate accepted, e.g. 0.05" problems={at(problems, "analysis.alpha")}>
            {(ctl) => <input {...ctl} type="number" step="0.01" min="0" max="0.5" value={draft.alpha} onInput={(e) => set({ alpha: e.currentTarget.value })} />}
          </Field>
          <Field label="Planned units" problems={at(problems, "analysis.plannedUnits")}>
            {(ctl) => <input {...ctl} type="number" step="1" min="100" value={draft.plannedUnits} onInput={(e) => set({ plannedUnits: e.currentTarget.value })} />}
          </Field>
          <Field label="Days before exposure for CUPED" problems={at(problems, "analysis.preWindowDays")}>
            {(ctl) => <input {...ctl} type="number" step="1" min="0" max="30" value={draft.preWindowDays} onInput={(e) => set({ preWindowDays: e.currentTarget.value })} />}
          </Field>
        </div>
        <label class="check">
          <input type="checkbox" checked={draft.cuped} onChange={(e) => set({ cuped: e.currentTarget.checked })} />
          CUPED: narrow the intervals with each unit's same metric before its exposure
        </label>
      </Group>
      <div class="actions">
        <button type="submit">Create experiment</button>
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  )
}
