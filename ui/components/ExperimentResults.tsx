/**
 * An experiment's results, read at a glance: the sample-ratio banner when the split is off, the
 * other checks (units seen in several variations, too few units), then per metric the verdicts in
 * words and the lift chart, and the targeting changes on a timeline.
 *
 * Live: exposures and metric events are not management events (they arrive by the thousand and
 * are not audited), so the events stream cannot say when the figures move. While the experiment
 * runs and the page is visible the results are read again every 15 seconds; `refresh` (the page
 * bumps it on the stream's events: the experiment's own changes, the flag's targeting in its
 * environment, a reconnection) reads them at once.
 */
import { useEffect } from "preact/hooks"
import { when } from "../lib/format.js"
import type { Caveat } from "../lib/lift.js"
import { useLoad } from "../lib/load.js"
import { loadResults } from "../lib/results.js"
import type { Experiment } from "../lib/types.js"
import { MetricResultCard } from "./MetricResultCard.js"
import { SampleRatioBanner } from "./SampleRatioBanner.js"
import { Waiting } from "./Status.js"
import { TargetingTimeline } from "./TargetingTimeline.js"

/** How often a running experiment's results are read again. */
export const RESULTS_POLL_MS = 15_000

export const ExperimentResults = (props: { projectId: string; experiment: Experiment; refresh: number; nameOf: (variationKey: string) => string }) => {
  const { experiment: e } = props
  const { loaded, reload } = useLoad(() => loadResults(props.projectId, e.key), [props.projectId, e.key, e.status, props.refresh])
  useEffect(() => {
    if (e.status !== "running") return
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") reload()
    }, RESULTS_POLL_MS)
    return () => clearInterval(timer)
  }, [e.status, reload])
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const results = loaded.data
  const { checks } = results
  const caveat: Caveat = !results.trustworthy ? "mismatch" : checks.notEnoughData ? "not-enough-data" : "none"
  return (
    <>
      <p class="muted">
        {results.method === "sequential" ? "Sequential analysis: these intervals hold however often you look." : `${results.method === "bayesian" ? "Bayesian" : "Frequentist"} analysis.`}{" "}
        Intervals at {Math.round((1 - results.alpha) * 100)}%. Read {when(results.readAt)}
        {e.status === "running" ? "; read again every 15 seconds while the experiment runs." : "."}
      </p>
      {checks.sampleRatio?.mismatch === true ? <SampleRatioBanner check={checks.sampleRatio} nameOf={props.nameOf} /> : null}
      {checks.notEnoughData ? (
        <p class="banner">
          Not enough data yet: some variation has fewer than {checks.minimumUnits} units, so no verdict is given for now.
        </p>
      ) : null}
      {checks.unitsInSeveralVariations > 0 ? (
        <p class="banner">
          {checks.unitsInSeveralVariations.toLocaleString("en")} unit{checks.unitsInSeveralVariations === 1 ? " was" : "s were"} exposed to more than one variation and{" "}
          {checks.unitsInSeveralVariations === 1 ? "is" : "are"} left out of every figure.
        </p>
      ) : null}
      {e.metrics.map((metric) => {
        const result = results.metrics.find((m) => m.key === metric.key)
        return result === undefined ? null : (
          <MetricResultCard key={metric.key} metric={metric} result={result} controlKey={e.controlVariationKey} nameOf={props.nameOf} caveat={caveat} />
        )
      })}
      {e.startedAt === null ? null : (
        <TargetingTimeline
          flagKey={e.flagKey}
          environment={e.environment}
          startedAt={e.startedAt}
          endedAt={e.stoppedAt ?? results.readAt}
          stopped={e.stoppedAt !== null}
          changes={checks.targetingChanges}
        />
      )}
    </>
  )
}
