/** The matrix rows of experiments: each of development, which the key bound to production may not reach. */
import { Messages } from "../../../src/domain/auth/Policy.js"
import { ExperimentResults } from "../../../src/services/experiments/ExperimentResults.js"
import { Experiments } from "../../../src/services/experiments/Experiments.js"
import { UnitExport } from "../../../src/services/experiments/UnitExport.js"
import { request, type TestServer } from "../fixtures.js"
import { admin, create, type Endpoint, forbidden, freshFlag, use } from "./Endpoint.js"

const ROLLOUT = { variations: [{ variationKey: "a", weight: 50_000 }, { variationKey: "b", weight: 50_000 }] }

/** A development experiment on a fresh flag whose rule `half` splits 50/50: a draft, or started. */
export const freshExperiment = async (t: TestServer, n: number, label: string, status: "draft" | "running" = "draft") => {
  const flag = await freshFlag(t, n, label)
  const targeting = { environment: "development", enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [{ id: "half", conditions: [], rollout: ROLLOUT }] }
  const put = await request(t.url, "PUT", `/v1/projects/p1/flags/${flag.key}/targeting`, { headers: admin(t), body: targeting })
  if (put.status !== 200) throw new Error(`setup failed: targeting -> ${put.status} ${put.text}`)
  const experiment = await create(t, "/v1/projects/p1/experiments", experimentBody(`${label}-${n}`, flag.key))
  const path = `/v1/projects/p1/experiments/${experiment.key}`
  if (status === "running") {
    const started = await request(t.url, "POST", `${path}/start`, { headers: admin(t) })
    if (started.status !== 200) throw new Error(`setup failed: start -> ${started.status} ${started.text}`)
  }
  return { key: experiment.key, path, flagKey: flag.key }
}

const experimentBody = (key: string, flagKey: string) => ({
  key,
  flagKey,
  environment: "development",
  ruleId: "half",
  controlVariationKey: "a",
  metrics: [{ key: "buys", event: "purchase", kind: "conversion" as const, goal: "increase" as const, role: "primary" as const }]
})

/** Development's experiments: the key bound to production may not read or write them. */
const OTHER_ENVIRONMENT = forbidden(Messages.environmentMismatch)

export const EXPERIMENT_ENDPOINTS: ReadonlyArray<Endpoint> = [
  // A bound key's list holds its own environment's experiments only.
  { name: "GET /v1/projects/{p}/experiments", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/experiments", call: use(Experiments, (e) => e.list("p1")) }) },
  {
    name: "POST /v1/projects/{p}/experiments",
    kind: "management",
    needs: "write",
    success: 201,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { flagKey, key } = await freshExperiment(t, n, "experimented")
      const body = experimentBody(`${key}-again`, flagKey)
      return { method: "POST", path: "/v1/projects/p1/experiments", body, call: use(Experiments, (e) => e.create("p1", body)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/experiments/{e}",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "read-experiment")
      return { method: "GET", path, call: use(Experiments, (e) => e.get("p1", key)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/experiments/{e}/results",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "results-experiment", "running")
      return { method: "GET", path: `${path}/results`, call: use(ExperimentResults, (r) => r.results("p1", key)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/experiments/{e}/units.csv",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "exported-experiment")
      return { method: "GET", path: `${path}/units.csv`, call: use(UnitExport, (u) => u.csv("p1", key)) }
    }
  },
  {
    name: "PATCH /v1/projects/{p}/experiments/{e}",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "renamed-experiment")
      return { method: "PATCH", path, body: { name: "Renamed" }, call: use(Experiments, (e) => e.patch("p1", key, { name: "Renamed" })) }
    }
  },
  {
    name: "DELETE /v1/projects/{p}/experiments/{e}",
    kind: "management",
    needs: "write",
    success: 204,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "deleted-experiment")
      return { method: "DELETE", path, call: use(Experiments, (e) => e.remove("p1", key)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/experiments/{e}/start",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "started-experiment")
      return { method: "POST", path: `${path}/start`, call: use(Experiments, (e) => e.start("p1", key)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/experiments/{e}/stop",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { key, path } = await freshExperiment(t, n, "stopped-experiment", "running")
      return { method: "POST", path: `${path}/stop`, body: {}, call: use(Experiments, (e) => e.stop("p1", key, {})) }
    }
  }
]
