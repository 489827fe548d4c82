/**
 * One experiment: what it measures (flag, environment, rule, control, metrics, analysis), its
 * status and decision, the actions the person's role allows (start, stop with a decision), and
 * its results once started. It follows the project's live changes: the experiment's own (started
 * or stopped elsewhere) and the flag's targeting in its environment read the page again at once.
 */
import { useState } from "preact/hooks"
import { ExperimentActions } from "../components/ExperimentActions.js"
import { ExperimentResults } from "../components/ExperimentResults.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { LIVE_WORDS, useProjectEvents } from "../lib/events.js"
import { metricWords, STATUS_WORDS } from "../lib/experiments.js"
import { when } from "../lib/format.js"
import { useLoad } from "../lib/load.js"
import { allows } from "../lib/roles.js"
import { href } from "../lib/router.js"
import type { Experiment, Flag } from "../lib/types.js"

const loadExperiment = async (projectId: string, key: string) => {
  const experiment = await request<Experiment>("GET", projectPath(projectId, `/experiments/${seg(key)}`))
  const flag = await request<Flag>("GET", projectPath(projectId, `/flags/${seg(experiment.flagKey)}`))
  return { experiment, flag }
}

export const ExperimentPage = ({ projectId, experimentKey }: { projectId: string; experimentKey: string }) => {
  const { loaded, reload, update } = useLoad(() => loadExperiment(projectId, experimentKey), [projectId, experimentKey])
  const [refresh, setRefresh] = useState(0)
  const shown = loaded.state === "ready" ? loaded.data.experiment : null
  const live = useProjectEvents(projectId, (event) => {
    const mine = event === null || (event.resource.type === "experiment" && event.resource.key === experimentKey)
    const targeting = event !== null && shown !== null && event.flagKeys.includes(shown.flagKey) && event.environments.includes(shown.environment)
    if (mine || targeting) {
      reload()
      setRefresh((n) => n + 1)
    }
  })
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { experiment: e, flag } = loaded.data
  const nameOf = (key: string) => flag.variations.find((v) => v.key === key)?.name ?? key
  const rules = flag.configs.find((c) => c.environmentKey === e.environment)?.rules ?? []
  const place = rules.findIndex((r) => r.id === e.ruleId)
  const ruleName = rules[place]?.name
  return (
    <section aria-labelledby="experiment-title">
      <p><a href={href({ page: "experiments" })}>Experiments</a></p>
      <h1 id="experiment-title">
        {e.name} <code>{e.key}</code>
      </h1>
      <p>
        <strong class={`experiment-${e.status}`}>{STATUS_WORDS[e.status]}</strong>
        {e.startedAt === null ? null : e.stoppedAt === null ? <> since {when(e.startedAt)}</> : <>: ran from {when(e.startedAt)} to {when(e.stoppedAt)}</>}.{" "}
        <span class="muted">{LIVE_WORDS[live]}</span>
      </p>
      {e.decision === undefined ? null : (
        <p class="card notice">
          Decision: keep <strong>{nameOf(e.decision.variationKey)}</strong>
          {e.decision.note === "" ? "." : <>: {e.decision.note}</>}
        </p>
      )}
      {e.hypothesis === undefined ? null : <p>Hypothesis: {e.hypothesis}</p>}
      <dl class="facts">
        <dt>Flag</dt>
        <dd><a href={href({ page: "flag", key: e.flagKey, environment: e.environment })}>{e.flagKey}</a> in {e.environment}</dd>
        <dt>Rule</dt>
        <dd>{place === -1 ? <>no longer in the targeting (<code>{e.ruleId}</code>)</> : `rule ${place + 1}${ruleName === undefined || ruleName === "" ? "" : ` “${ruleName}”`}`}</dd>
        <dt>Control</dt>
        <dd>{nameOf(e.controlVariationKey)}</dd>
        <dt>Metrics</dt>
        <dd>
          <ul>{e.metrics.map((m) => <li key={m.key}><code>{m.key}</code>: {metricWords(m)}</li>)}</ul>
        </dd>
        <dt>Analysis</dt>
        <dd>{e.analysis.method}, alpha {e.analysis.alpha}, CUPED {e.analysis.cuped ? `on (${e.analysis.preWindowDays} days before)` : "off"}, {e.analysis.plannedUnits.toLocaleString("en")} units planned</dd>
      </dl>
      {allows("write") ? (
        <ExperimentActions projectId={projectId} experiment={e} variations={flag.variations} onChanged={(next) => update((d) => ({ ...d, experiment: next }))} />
      ) : null}
      <h2>Results</h2>
      {e.status === "draft" ? (
        <p>Results appear once the experiment starts.</p>
      ) : (
        <ExperimentResults projectId={projectId} experiment={e} refresh={refresh} nameOf={nameOf} />
      )}
    </section>
  )
}
