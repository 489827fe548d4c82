/**
 * What people who may write do with an experiment: start a draft (exposures count from then), and
 * stop a running one, with the team's decision (the variation to keep and why) or none yet. A
 * stop is final, so it asks first. The API's refusal (the rule changed since the draft, another
 * experiment measures the rule) shows here as every page shows one.
 */
import { useState } from "preact/hooks"
import { projectPath, request, seg } from "../lib/api.js"
import { fromError, NO_PROBLEMS, type Problems, at } from "../lib/problems.js"
import type { Experiment, Variation } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { ErrorSummary } from "./ErrorSummary.js"
import { Field } from "./Field.js"

export const ExperimentActions = (props: { projectId: string; experiment: Experiment; variations: ReadonlyArray<Variation>; onChanged: (e: Experiment) => void }) => {
  const { experiment: e } = props
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [decision, setDecision] = useState("")
  const [note, setNote] = useState("")
  const path = projectPath(props.projectId, `/experiments/${seg(e.key)}`)
  const act = async (what: () => Promise<Experiment>) => {
    try {
      props.onChanged(await what())
      setProblems(NO_PROBLEMS)
    } catch (error) {
      setProblems(fromError(error))
    }
  }
  const start = () => act(() => request<Experiment>("POST", `${path}/start`))
  const stop = async (event: Event) => {
    event.preventDefault()
    if (!(await ask(`Stop ${e.name}? A stopped experiment keeps its results but cannot start again.`))) return
    await act(() => request<Experiment>("POST", `${path}/stop`, decision === "" ? {} : { decision: { variationKey: decision, note } }))
  }
  if (e.status === "draft") {
    return (
      <div class="card">
        <ErrorSummary problems={problems} />
        <p>Starting counts the exposures of units the rule serves from now on; the flag, the rule and the metrics are then fixed. It changes no targeting.</p>
        <button type="button" onClick={start}>Start experiment</button>
      </div>
    )
  }
  if (e.status !== "running") return null
  return (
    <form class="card" aria-label="Stop the experiment" onSubmit={stop} noValidate>
      <h2>Stop the experiment</h2>
      <ErrorSummary problems={problems} />
      <div class="row">
        <Field label="Decision" hint="The variation the team keeps, if it has decided" problems={at(problems, "decision.variationKey")}>
          {(ctl) => (
            <select {...ctl} value={decision} onChange={(ev) => setDecision(ev.currentTarget.value)}>
              <option value="">No decision yet</option>
              {props.variations.map((v) => <option key={v.key} value={v.key}>Keep {v.name ?? v.key}</option>)}
            </select>
          )}
        </Field>
        <Field label="Why" hint="What the team saw and decided (kept with the decision)" problems={at(problems, "decision.note")} class="grow">
          {(ctl) => <textarea {...ctl} rows={2} value={note} onInput={(ev) => setNote(ev.currentTarget.value)} />}
        </Field>
      </div>
      <div class="actions">
        <button type="submit" class="danger">Stop experiment</button>
      </div>
    </form>
  )
}
