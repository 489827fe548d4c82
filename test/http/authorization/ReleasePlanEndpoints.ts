/** The matrix rows of release plans: each of development, which the key bound to production may not reach. */
import { Messages } from "../../../src/domain/auth/Policy.js"
import { ReleasePlans } from "../../../src/services/releaseplans/ReleasePlans.js"
import { request, type TestServer } from "../fixtures.js"
import { admin, create, type Endpoint, forbidden, freshFlag, use } from "./Endpoint.js"

const planBody = { environment: "development", ruleId: "all", variationKey: "a", steps: [{ weight: 10_000, holdMinutes: 60 }] }

/** A development plan on a fresh flag whose rule `all` serves `b`: a draft, running or paused. */
const freshPlan = async (t: TestServer, n: number, label: string, status: "draft" | "running" | "paused" = "draft") => {
  const flag = await freshFlag(t, n, label)
  const targeting = { environment: "development", enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [{ id: "all", conditions: [], variationKey: "b" }] }
  const put = await request(t.url, "PUT", `/v1/projects/p1/flags/${flag.key}/targeting`, { headers: admin(t), body: targeting })
  if (put.status !== 200) throw new Error(`setup failed: targeting -> ${put.status} ${put.text}`)
  const base = `/v1/projects/p1/flags/${flag.key}/release-plans`
  const plan = await create(t, base, planBody)
  const path = `${base}/${plan.id}`
  for (const step of status === "draft" ? [] : status === "running" ? ["start"] : ["start", "pause"]) {
    const done = await request(t.url, "POST", `${path}/${step}`, { headers: admin(t) })
    if (done.status !== 200) throw new Error(`setup failed: ${step} -> ${done.status} ${done.text}`)
  }
  return { id: plan.id as string, base, path, flagKey: flag.key }
}

const OTHER_ENVIRONMENT = forbidden(Messages.environmentMismatch)

const action = (name: "start" | "pause" | "resume" | "cancel", from: "draft" | "running" | "paused"): Endpoint => ({
  name: `POST /v1/projects/{p}/flags/{k}/release-plans/{id}/${name}`,
  kind: "management",
  needs: "write",
  success: 200,
  boundServer: OTHER_ENVIRONMENT,
  prepare: async (t, n) => {
    const { flagKey, id, path } = await freshPlan(t, n, `${name}-plan`, from)
    const call = use(ReleasePlans, (plans) =>
      name === "resume" ? plans.resume("p1", flagKey, id, {}) : name === "start" ? plans.start("p1", flagKey, id) : name === "pause" ? plans.pause("p1", flagKey, id) : plans.cancel("p1", flagKey, id))
    return { method: "POST", path: `${path}/${name}`, call }
  }
})

export const RELEASE_PLAN_ENDPOINTS: ReadonlyArray<Endpoint> = [
  // A bound key's list holds its own environment's plans only.
  {
    name: "GET /v1/projects/{p}/flags/{k}/release-plans",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => {
      const { base, flagKey } = await freshPlan(t, n, "listed-plans")
      return { method: "GET", path: base, call: use(ReleasePlans, (plans) => plans.list("p1", flagKey)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/flags/{k}/release-plans",
    kind: "management",
    needs: "write",
    success: 201,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { base, flagKey } = await freshPlan(t, n, "created-plan")
      return { method: "POST", path: base, body: planBody, call: use(ReleasePlans, (plans) => plans.create("p1", flagKey, planBody)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/flags/{k}/release-plans/{id}",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { flagKey, id, path } = await freshPlan(t, n, "read-plan")
      return { method: "GET", path, call: use(ReleasePlans, (plans) => plans.get("p1", flagKey, id)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/flags/{k}/release-plans/{id}/guardrails",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { flagKey, id, path } = await freshPlan(t, n, "guarded-plan", "running")
      return { method: "GET", path: `${path}/guardrails`, call: use(ReleasePlans, (plans) => plans.guardrails("p1", flagKey, id)) }
    }
  },
  {
    name: "PATCH /v1/projects/{p}/flags/{k}/release-plans/{id}",
    kind: "management",
    needs: "write",
    success: 200,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { flagKey, id, path } = await freshPlan(t, n, "patched-plan")
      return { method: "PATCH", path, body: { onHarm: "rollback" }, call: use(ReleasePlans, (plans) => plans.update("p1", flagKey, id, { onHarm: "rollback" })) }
    }
  },
  {
    name: "DELETE /v1/projects/{p}/flags/{k}/release-plans/{id}",
    kind: "management",
    needs: "write",
    success: 204,
    boundServer: OTHER_ENVIRONMENT,
    prepare: async (t, n) => {
      const { flagKey, id, path } = await freshPlan(t, n, "deleted-plan")
      return { method: "DELETE", path, call: use(ReleasePlans, (plans) => plans.remove("p1", flagKey, id)) }
    }
  },
  action("start", "draft"),
  action("pause", "running"),
  action("resume", "paused"),
  action("cancel", "running")
]
