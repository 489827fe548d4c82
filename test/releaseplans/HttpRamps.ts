/**
 * Simulated release plans through a real server over HTTP: many plans, one per flag, ramp at once
 * on one `flagport serve` process whose scheduler steps them and checks their guardrails. One
 * Flagport SDK, connected with its stream, plays the traffic of every flag: each tick it evaluates
 * new units (and some returning ones) locally with the weight the stream last brought, the SDK
 * sends their exposures itself (`POST /v1/exposures`), and an error event (`client.track`,
 * `POST /v1/track`) for a unit with the error rate of the variation it was served. An A/A ramp has
 * one error rate for both arms; a harmful one doubles it for the treatment. Each run ends when its
 * plan does (completed, or harmed: rolled back); what the plan recorded is its outcome.
 */
import { createClient } from "../../adapters/client/index.js"
import { request } from "../http/fixtures.js"
import { seededRandom } from "../domain/experiments/simulation.js"

export interface RampSettings {
  /** Harmless ramps (both arms at `baseErrorRate`). */
  readonly aa: number
  /** Harmful ramps (the treatment at twice `baseErrorRate`). */
  readonly doubled: number
  readonly steps: ReadonlyArray<number>
  readonly holdMinutes: number
  /** New units per second of each ramp. */
  readonly unitsPerSecond: number
  /** Returning units per tick, as a share of the new ones (some cross into the treatment as it grows). */
  readonly returningShare: number
  readonly baseErrorRate: number
  readonly alpha: number
  readonly tickMs: number
  readonly seed: number
  /** A prefix for the flags' keys, so that several batches can run on one server. */
  readonly prefix: string
}

export interface Target {
  readonly url: string
  readonly serverKey: string
  readonly clientKey: string
  readonly projectId: string
}

export interface RampOutcome {
  readonly kind: "aa" | "doubled"
  readonly flagKey: string
  readonly status: string
  /** The weight the plan was at when harm was found; null when it was never harmed. */
  readonly harmWeight: number | null
  readonly harmAction: string | null
  /** The units of each arm in the check that found harm. */
  readonly harmUnits: { readonly treatment: number; readonly control: number } | null
  /** The step (index) the plan had reached when it ended (or was last seen). */
  readonly step: number | null
  /** New units sent for it. */
  readonly units: number
}

export interface RampReport {
  readonly outcomes: ReadonlyArray<RampOutcome>
  readonly seconds: number
  readonly units: number
  readonly errors: number
  /** The most exposures and events the SDK held unsent at the end of a tick: how far delivery fell behind. */
  readonly maxPending: number
  /** Exposures and events the SDK dropped (a full buffer, refused batches). */
  readonly dropped: number
}

interface Run {
  readonly kind: "aa" | "doubled"
  readonly flagKey: string
  planId: string
  done: boolean
  outcome: RampOutcome | null
  last: PlanBody | null
  readonly seen: Array<string>
  next: number
}

interface PlanBody {
  readonly id: string
  readonly status: string
  readonly currentStep: number | null
  readonly nextStepAt: string | null
  readonly harm: {
    readonly weight: number
    readonly action: string
    readonly check: { readonly guardrails: ReadonlyArray<{ readonly treatment: { readonly units: number }; readonly control: { readonly units: number } }> }
  } | null
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** `work` over `items`, at most `limit` at a time. */
const inBatches = async <A>(items: ReadonlyArray<A>, limit: number, work: (item: A) => Promise<void>) => {
  const queue = [...items]
  await Promise.all(Array.from({ length: limit }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
  }))
}

const ENDED = new Set(["completed", "harmed", "paused", "cancelled"])

/** Runs the ramps to their ends (or `deadlineMs`) and answers each one's outcome. */
export const runRamps = async (target: Target, settings: RampSettings, deadlineMs: number): Promise<RampReport> => {
  const call = async (method: string, path: string, body?: unknown) => {
    const reply = await request(target.url, method, path, { key: target.serverKey, ...(body === undefined ? {} : { body }) })
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`)
    return reply.body
  }
  const flags = `/v1/projects/${target.projectId}/flags`
  const runs: Array<Run> = [
    ...Array.from({ length: settings.aa }, (_, i) => ({ kind: "aa" as const, flagKey: `${settings.prefix}-aa-${i}` })),
    ...Array.from({ length: settings.doubled }, (_, i) => ({ kind: "doubled" as const, flagKey: `${settings.prefix}-x2-${i}` }))
  ].map((run) => ({ ...run, planId: "", done: false, outcome: null, last: null, seen: [], next: 0 }))

  await inBatches(runs, 4, async (run) => {
    await call("POST", flags, { key: run.flagKey, type: "boolean", variations: [{ key: "on", value: true }, { key: "off", value: false }] })
    await call("PUT", `${flags}/${run.flagKey}/targeting`, {
      environment: "production",
      enabled: true,
      defaultVariationKey: "off",
      offVariationKey: "off",
      rules: [{ id: "ramp", conditions: [], rollout: { variations: [{ variationKey: "on", weight: 0 }, { variationKey: "off", weight: 100_000 }] } }]
    })
    const plan = await call("POST", `${flags}/${run.flagKey}/release-plans`, {
      environment: "production",
      ruleId: "ramp",
      variationKey: "on",
      steps: settings.steps.map((weight) => ({ weight, holdMinutes: settings.holdMinutes })),
      guardrails: [{ key: "errors", event: "error", kind: "conversion", goal: "decrease", role: "guardrail" }],
      onHarm: "rollback",
      alpha: settings.alpha
    }) as PlanBody
    run.planId = plan.id
  })

  const sdk = await createClient({
    url: target.url,
    key: target.clientKey,
    environment: "production",
    pollIntervalMs: 60_000,
    flushIntervalMs: 250,
    maxQueuedItems: 1_000_000,
    sendInsights: false
  })
  const random = seededRandom(settings.seed)
  let units = 0
  let errors = 0
  let maxPending = 0
  let dropped = 0
  const began = Date.now()
  try {
    await inBatches(runs, 4, async (run) => {
      await call("POST", `${flags}/${run.flagKey}/release-plans/${run.planId}/start`)
    })
    // The SDK must know the rules are measured before it sends their exposures: the stream brings
    // the plans' starts with the change of each first step.
    const perTick = Math.max(1, Math.round((settings.unitsPerSecond * settings.tickMs) / 1000))
    const tick = () => {
      for (const run of runs) {
        if (run.done) continue
        const returning = run.seen.length === 0 ? 0 : Math.round(perTick * settings.returningShare)
        const batch: Array<string> = []
        for (let i = 0; i < perTick; i++) batch.push(`${run.flagKey}-u${run.next++}`)
        for (let i = 0; i < returning; i++) batch.push(run.seen[Math.floor(random() * run.seen.length)]!)
        for (const unit of batch) {
          const treated = sdk.boolean(run.flagKey, { key: unit }, false)
          const rate = treated && run.kind === "doubled" ? 2 * settings.baseErrorRate : settings.baseErrorRate
          if (random() < rate) {
            sdk.track("error", unit)
            errors++
          }
        }
        for (let i = 0; i < perTick; i++) run.seen.push(batch[i]!)
        units += batch.length
      }
    }
    const watch = async () => {
      await inBatches(runs.filter((run) => !run.done), 4, async (run) => {
        const plan = await call("GET", `${flags}/${run.flagKey}/release-plans/${run.planId}`) as PlanBody
        run.last = plan
        if (!ENDED.has(plan.status)) return
        run.done = true
        run.outcome = {
          kind: run.kind,
          flagKey: run.flagKey,
          status: plan.status,
          harmWeight: plan.harm?.weight ?? null,
          harmAction: plan.harm?.action ?? null,
          harmUnits: plan.harm === null ? null : { treatment: plan.harm.check.guardrails[0]!.treatment.units, control: plan.harm.check.guardrails[0]!.control.units },
          step: plan.currentStep,
          units: run.next
        }
      })
    }
    let lastWatch = 0
    while (runs.some((run) => !run.done) && Date.now() < deadlineMs) {
      const started = Date.now()
      tick()
      const { events, exposures } = sdk.delivery
      maxPending = Math.max(maxPending, events.pending + exposures.pending)
      if (started - lastWatch >= 1_000) {
        lastWatch = started
        await watch()
      }
      await sleep(Math.max(0, settings.tickMs - (Date.now() - started)))
    }
  } finally {
    const { events, exposures } = sdk.delivery
    dropped = [events, exposures].reduce((sum, counts) => sum + counts.dropped.full + counts.dropped.refused + counts.dropped.invalid + counts.dropped.expired, 0)
    await sdk.close()
  }
  return {
    outcomes: runs.map((run) => run.outcome ?? {
      kind: run.kind,
      flagKey: run.flagKey,
      status: "unfinished",
      harmWeight: null,
      harmAction: null,
      harmUnits: null,
      step: run.last?.currentStep ?? null,
      units: run.next
    }),
    seconds: (Date.now() - began) / 1000,
    units,
    errors,
    maxPending,
    dropped
  }
}
