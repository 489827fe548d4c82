/**
 * Scheduling the targeting being edited instead of saving it now: a date and time (UTC, to the
 * second) and a button. The API checks the targeting as the save would; its refusal is handed to
 * the editor (`onRefused`) so each problem shows next to its field, as for a save.
 */
import { useState } from "preact/hooks"
import { projectPath, request, seg } from "../lib/api.js"
import { fromUtcInput, when } from "../lib/format.js"
import { at, fromError, type Problems } from "../lib/problems.js"
import { onEditorPaths, scheduleBody } from "../lib/schedules.js"
import { isProductionLike } from "../lib/settings.js"
import type { Schedule } from "../lib/types.js"
import { ask } from "./Confirm.js"
import { Field } from "./Field.js"

export const ScheduleChange = (props: {
  projectId: string
  flagKey: string
  targeting: Parameters<typeof scheduleBody>[1]
  problems: Problems
  onScheduled: (schedule: Schedule) => void
  onRefused: (problems: Problems) => void
}) => {
  const [time, setTime] = useState("")
  const [busy, setBusy] = useState(false)
  const environment = props.targeting.environment
  const schedule = async () => {
    if (isProductionLike(environment) && !(await ask(`Schedule this targeting of ${props.flagKey} in ${environment} for ${when(fromUtcInput(time))}?`))) return
    setBusy(true)
    try {
      props.onScheduled(await request<Schedule>("POST", projectPath(props.projectId, `/flags/${seg(props.flagKey)}/schedules`), scheduleBody(time, props.targeting)))
    } catch (error) {
      props.onRefused(onEditorPaths(fromError(error)))
    } finally {
      setBusy(false)
    }
  }
  return (
    <fieldset class="schedule-change">
      <legend>Or schedule this change</legend>
      <p class="muted">At the time chosen, the targeting above replaces whatever {environment} has by then. Nothing changes now.</p>
      <div class="row">
        <Field label="Apply at (UTC)" hint="Date and time in UTC; a time already past applies at once." problems={at(props.problems, "at")}>
          {(ctl) => <input {...ctl} type="datetime-local" step="1" value={time} onInput={(e) => setTime(e.currentTarget.value)} />}
        </Field>
      </div>
      <div class="actions">
        <button type="button" class="secondary" disabled={time === "" || busy} onClick={schedule}>
          {busy ? "Scheduling…" : `Schedule for ${environment}`}
        </button>
      </div>
    </fieldset>
  )
}
