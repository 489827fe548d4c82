/**
 * The project's pending scheduled changes, every flag, earliest first (`GET .../schedules`),
 * narrowed to one environment when chosen, in the schedules table (SchedulesTable.tsx) with a
 * column for the flag (whose Cancel asks first in production-like environments).
 */
import { useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { SchedulesTable } from "../components/SchedulesTable.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import type { Environment, List, Schedule } from "../lib/types.js"

export const SchedulesPage = ({ projectId }: { projectId: string }) => {
  const environments = useLoad(() => request<List<Environment>>("GET", projectPath(projectId, "/environments")), [projectId])
  const [environment, setEnvironment] = useState("")
  const query = environment === "" ? "" : `?environment=${encodeURIComponent(environment)}`
  const { loaded, reload } = useLoad(() => request<List<Schedule>>("GET", projectPath(projectId, `/schedules${query}`)).then((l) => l.data), [projectId, query])
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  const [status, setStatus] = useState("")
  const schedules = loaded.state === "ready" ? loaded.data : null

  const cancel = async (s: Schedule) => {
    try {
      await request("DELETE", projectPath(projectId, `/flags/${seg(s.flagKey)}/schedules/${seg(s.id)}`))
      setProblems(NO_PROBLEMS)
      setStatus(`The change to ${s.flagKey} in ${s.environment} scheduled for ${when(s.at)} is cancelled.`)
    } catch (error) {
      setProblems(fromError(error))
    }
    reload()
  }

  return (
    <section aria-labelledby="schedules-title">
      <h1 id="schedules-title">Schedules</h1>
      <p class="muted">
        Changes to flags' targeting that are still to come: each one replaces the targeting of a flag in one environment at its time. Schedule one from a flag's
        page, under “Or schedule this change”.
      </p>
      <Field label="Environment" class="inline">
        {(ctl) => (
          <select {...ctl} value={environment} onChange={(e) => (setEnvironment(e.currentTarget.value), setStatus(""))}>
            <option value="">Any</option>
            {(environments.loaded.state === "ready" ? environments.loaded.data.data : []).map((env) => (
              <option key={env.key} value={env.key}>{env.name} ({env.key})</option>
            ))}
          </select>
        )}
      </Field>
      <p role="status" class="status">{status}</p>
      <ErrorSummary problems={problems} />
      {schedules === null ? (
        <Waiting loaded={loaded} />
      ) : schedules.length === 0 ? (
        <p>
          No change is scheduled{environment === "" ? " in this project" : ` in ${environment}`}. A schedule changes a flag's targeting in one environment at a
          time you choose; make one on the flag's page.
        </p>
      ) : (
        <SchedulesTable
          caption={<>Pending scheduled changes of {projectId}{environment === "" ? "" : ` in ${environment}`}, earliest first</>}
          schedules={schedules}
          flags
          onCancel={cancel}
        />
      )}
    </section>
  )
}
