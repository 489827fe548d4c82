import * as Layer from "effect/Layer"
import * as ApiKeys from "./auth/ApiKeys.js"
import * as Audit from "./audit/Audit.js"
import * as ChangeRequests from "./changes/ChangeRequests.js"
import * as EnvironmentCopy from "./projects/EnvironmentCopy.js"
import * as Environments from "./projects/Environments.js"
import * as ExperimentResults from "./experiments/ExperimentResults.js"
import * as Experiments from "./experiments/Experiments.js"
import * as ReleasePlans from "./releaseplans/ReleasePlans.js"
import * as Exposures from "./experiments/Exposures.js"
import * as Ingestion from "./experiments/Ingestion.js"
import * as IngestBudget from "./experiments/IngestBudget.js"
import * as Track from "./experiments/Track.js"
import * as UnitExport from "./experiments/UnitExport.js"
import * as FlagdImport from "./flagd/FlagdImport.js"
import * as GuardrailChecks from "./releaseplans/GuardrailChecks.js"
import * as Flags from "./flags/Flags.js"
import * as FlagsAsCode from "./ascode/FlagsAsCode.js"
import * as Health from "./operations/Health.js"
import * as Members from "./people/Members.js"
import * as Projects from "./projects/Projects.js"
import * as Schedules from "./schedules/Schedules.js"
import * as SegmentKeys from "./segments/SegmentKeys.js"
import * as Segments from "./segments/Segments.js"
import * as Sessions from "./people/Sessions.js"
import * as SignIn from "./people/SignIn.js"
import * as SignInGuard from "./people/SignInGuard.js"
import * as DeviceTrust from "./people/DeviceTrust.js"
import * as Snapshots from "./evaluation/Snapshots.js"
import * as StreamTokens from "./auth/StreamTokens.js"
import * as Users from "./people/Users.js"

/**
 * The use cases over the ports a storage adapter builds (and an IdGenerator and Crypto), built in
 * this one place. The stale period of flags is read when this layer is built
 * (`FlagUsage.StaleAfterDays`, default 30), and so is the sessions' idle period
 * (`Sessions.SessionIdleHours`, default 12). Not here: `Webhooks`, configured from the environment
 * (FLAGPORT_WEBHOOKS_PER_PROJECT), `Insights`, whose counts live in the process that serves (with
 * a flushing fiber), and the background workers; the composition root
 * (adapters/app/Composition.ts) adds them.
 */
const withChanges = Layer.mergeAll(Schedules.layer, ChangeRequests.layer).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      Projects.layer,
      Environments.layer,
      Flags.layer,
      EnvironmentCopy.layer,
      Segments.layer,
      SegmentKeys.layer,
      ApiKeys.layer,
      Snapshots.layer,
      StreamTokens.layer,
      Audit.layer,
      Health.layer,
      Users.layer,
      Members.layer,
      SignIn.layer,
      Sessions.layer,
      Experiments.layer,
      ExperimentResults.layer,
      // Release plans' guardrails on the experiment engine: the stepper asks them, and so does a
      // plan's guardrails read (the dashboard's figures).
      ReleasePlans.layer.pipe(Layer.provideMerge(GuardrailChecks.layer)),
      // One group commit and one hourly budget for exposures and metric events.
      Layer.mergeAll(Exposures.layer, Track.layer).pipe(Layer.provideMerge(Ingestion.layer), Layer.provide(IngestBudget.layer))
    ).pipe(Layer.provideMerge(Layer.mergeAll(SignInGuard.layer, DeviceTrust.layer))) // one guard for sign-ins and setups alike
  )
)

/**
 * Flags as code writes through the use cases above (FlagsAsCodeSteps.ts), change requests
 * included; so does the flagd import (FlagdImport.ts).
 */
export const layer = Layer.mergeAll(FlagsAsCode.layer, FlagdImport.layer, UnitExport.layer).pipe(Layer.provideMerge(withChanges))

/**
 * The use cases this layer builds, as a type: the one list of them (the composition root and the
 * HTTP adapter derive theirs from it, so a use case added above reaches them with nothing else to
 * update).
 */
export type UseCases = Layer.Layer.Success<typeof layer>
