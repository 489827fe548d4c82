/** The matrix rows of the evaluation routes and their insights. */
import { Messages } from "../../../src/domain/auth/Policy.js"
import { Insights } from "../../../src/services/insights/Insights.js"
import { request } from "../fixtures.js"
import { type Endpoint, forbidden, freshSegment, use } from "./Endpoint.js"

export const EVALUATION_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    name: "POST /v1/evaluate",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "POST", path: "/v1/evaluate", body: { environment: "development", context: { key: "u" }, projectId: "p1" } })
  },
  {
    name: "GET /v1/flags/{f}/eval",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/flags/matrix-flag/eval?environment=development&key=u&projectId=p1" })
  },
  {
    name: "POST /v1/explain",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "POST", path: "/v1/explain", body: { environment: "development", context: { key: "u" }, flagKey: "matrix-flag", projectId: "p1" } })
  },
  {
    name: "GET /v1/config",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/config?environment=development&projectId=p1" })
  },
  {
    name: "GET /v1/config/segments/{s}/{list}",
    kind: "evaluation",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshSegment(t, n, "klsdk")
      const put = await request(t.url, "PUT", `/v1/projects/p1/segments/${key}/keys/included`, { key: t.keys.global, body: "a\nb\n", headers: { "content-type": "text/plain" } })
      if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.text}`)
      const path = `/v1/config/segments/${key}/included?environment=development&projectId=p1`
      // The server serves the new list once it has loaded it (in the background).
      for (let i = 0; (await request(t.url, "GET", path, { key: t.keys.global })).status !== 200; i++) {
        if (i > 500) throw new Error("the list was never served")
        await new Promise((r) => setTimeout(r, 10))
      }
      return { method: "GET", path }
    }
  },
  {
    name: "GET /v1/stream",
    kind: "evaluation",
    success: 200,
    prepare: async () => ({ method: "GET", path: "/v1/stream?environment=development&projectId=p1" })
  },
  // Evaluation insights.
  {
    name: "GET /v1/projects/{p}/flags/{f}/insights",
    kind: "management",
    needs: "read",
    success: 200,
    // Development's evaluations: the key bound to production reads only its own.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({
      method: "GET",
      path: "/v1/projects/p1/flags/matrix-flag/insights?environment=development",
      call: use(Insights, (i) => i.series("p1", "matrix-flag", { environment: "development" }))
    })
  },
  {
    name: "POST /v1/insights",
    kind: "evaluation",
    success: 202,
    prepare: async () => ({
      method: "POST",
      path: "/v1/insights",
      body: {
        projectId: "p1",
        environment: "development",
        // A recent window: reports about hours older than 48 h are refused.
        from: new Date(Date.now() - 60_000).toISOString(),
        to: new Date().toISOString(),
        counts: [{ flagKey: "matrix-flag", variationKey: "a", count: 1 }]
      }
    })
  },
  // An SDK's exposures: kept only for a running experiment, answered 202 either way.
  {
    name: "POST /v1/exposures",
    kind: "evaluation",
    success: 202,
    prepare: async () => ({
      method: "POST",
      path: "/v1/exposures",
      body: {
        projectId: "p1",
        environment: "development",
        exposures: [{ flagKey: "matrix-flag", variationKey: "a", ruleId: "half", unit: "user-1", timestamp: new Date().toISOString() }]
      }
    })
  },
  // An SDK's metric events: kept only for a running experiment's metric, answered 202 either way.
  {
    name: "POST /v1/track",
    kind: "evaluation",
    success: 202,
    prepare: async () => ({
      method: "POST",
      path: "/v1/track",
      body: { projectId: "p1", environment: "development", events: [{ event: "purchase", unit: "user-1", value: 9.5 }] }
    })
  },
]
