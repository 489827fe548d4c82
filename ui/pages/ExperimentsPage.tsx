/**
 * The project's experiments, in creation order: what each measures (flag, environment), its
 * status and when it ran, and its decision once stopped; each links to its own page (its actions
 * and results). People who may write make a new one here from a flag's rollout rule. The list
 * follows the project's live changes, so an experiment started or stopped elsewhere shows at once.
 */
import { useState } from "preact/hooks"
import { ExperimentForm } from "../components/ExperimentForm.js"
import { Waiting } from "../components/Status.js"
import { Table } from "../components/Table.js"
import { projectPath, request } from "../lib/api.js"
import { LIVE_WORDS, useProjectEvents } from "../lib/events.js"
import { STATUS_WORDS } from "../lib/experiments.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { allows } from "../lib/roles.js"
import { go, href } from "../lib/router.js"
import type { Environment, Experiment, List } from "../lib/types.js"

const loadExperiments = async (projectId: string) => {
  const [experiments, environments] = await Promise.all([
    request<List<Experiment>>("GET", projectPath(projectId, "/experiments")),
    request<List<Environment>>("GET", projectPath(projectId, "/environments"))
  ])
  return { experiments: experiments.data, environments: environments.data }
}

const Ran = ({ e }: { e: Experiment }) =>
  e.startedAt === null ? <span class="muted">not started</span> : <>{when(e.startedAt)}{e.stoppedAt === null ? " until now" : ` to ${when(e.stoppedAt)}`}</>

export const ExperimentsPage = ({ projectId }: { projectId: string }) => {
  const { loaded, reload } = useLoad(() => loadExperiments(projectId), [projectId])
  const live = useProjectEvents(projectId, (event) => {
    if (event === null || event.resource.type === "experiment") reload()
  })
  const [creating, setCreating] = useState(false)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { experiments, environments } = loaded.data
  const writes = allows("write")
  return (
    <section aria-labelledby="experiments-title">
      <div class="page-head">
        <h1 id="experiments-title">Experiments</h1>
        {writes && !creating ? <button type="button" onClick={() => setCreating(true)}>New experiment</button> : null}
      </div>
      <p class="muted">
        An experiment measures what a flag's percentage rollout does: the units one rule splits between variations, compared with a control on the metrics SDKs
        track. {LIVE_WORDS[live]}
      </p>
      {creating && writes ? (
        <ExperimentForm
          projectId={projectId}
          environments={environments}
          onCreated={(e) => go({ page: "experiment", key: e.key })}
          onCancel={() => setCreating(false)}
        />
      ) : null}
      {experiments.length === 0 ? (
        <p>No experiments yet.{writes ? " Make one from a flag's rule that splits units by a percentage rollout." : ""}</p>
      ) : (
        <Table caption={<>Experiments of {projectId}, oldest first</>}>
          <thead>
            <tr>
              <th scope="col">Experiment</th>
              <th scope="col">Flag</th>
              <th scope="col">Environment</th>
              <th scope="col">Status</th>
              <th scope="col">Ran</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {experiments.map((e) => (
              <tr key={e.key}>
                <th scope="row">
                  <a href={href({ page: "experiment", key: e.key })}>{e.name}</a> <code>{e.key}</code>
                </th>
                <td><a href={href({ page: "flag", key: e.flagKey, environment: e.environment })}>{e.flagKey}</a></td>
                <td>{e.environment}</td>
                <td class={`experiment-${e.status}`}>{STATUS_WORDS[e.status]}</td>
                <td><Ran e={e} /></td>
                <td>{e.decision === undefined ? <span class="muted">none</span> : <>keep <code>{e.decision.variationKey}</code></>}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  )
}
