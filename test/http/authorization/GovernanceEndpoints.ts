/** The matrix rows of the audit log, schedules and change requests. */
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import { Messages } from "../../../src/domain/auth/Policy.js"
import { ChangeRequestMessages } from "../../../src/domain/changes/ChangeRequestRules.js"
import { Audit } from "../../../src/services/audit/Audit.js"
import { ChangeRequests } from "../../../src/services/changes/ChangeRequests.js"
import { Schedules } from "../../../src/services/schedules/Schedules.js"
import { create, type Endpoint, forbidden, freshChangeRequest, freshFlag, use } from "./Endpoint.js"

const TARGETING = { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
const schedule = { environment: "development", at: "2999-01-01T09:00:00Z", targeting: TARGETING }

export const GOVERNANCE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  { name: "GET /v1/projects/{p}/audit", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/audit", call: use(Audit, (a) => a.list("p1", {})) }) },
  { name: "GET /v1/projects/{p}/events", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/events", call: use(Audit, (a) => a.follow("p1")) }) },
  {
    name: "POST /v1/projects/{p}/flags/{f}/schedules",
    kind: "management",
    needs: "write",
    success: 201,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "schedule")
      return { method: "POST", path: `/v1/projects/p1/flags/${key}/schedules`, body: schedule, call: use(Schedules, (s) => s.create("p1", key, schedule)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/flags/{f}/schedules",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => {
      const { key } = await freshFlag(t, n, "schedules")
      return { method: "GET", path: `/v1/projects/p1/flags/${key}/schedules`, call: use(Schedules, (s) => s.list("p1", key)) }
    }
  },
  {
    name: "GET /v1/projects/{p}/schedules",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/schedules?environment=development", call: use(Schedules, (s) => s.listPending("p1", "development")) })
  },
  {
    name: "DELETE /v1/projects/{p}/flags/{f}/schedules/{s}",
    kind: "management",
    needs: "write",
    success: 204,
    // A development schedule: the key bound to production may not cancel it.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const flag = await freshFlag(t, n, "unschedule")
      const { id } = await create(t, `/v1/projects/p1/flags/${flag.key}/schedules`, schedule)
      return { method: "DELETE", path: `/v1/projects/p1/flags/${flag.key}/schedules/${id}`, call: use(Schedules, (s) => s.cancel("p1", flag.key, id)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests",
    kind: "management",
    needs: "propose",
    success: 201,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const body = { title: "T", environment: "development", changes: [{ flagKey: (await freshFlag(t, n, "to-propose")).key, targeting: TARGETING }] }
      return { method: "POST", path: "/v1/projects/p1/change-requests", body, call: use(ChangeRequests, (c) => c.open("p1", body)) }
    }
  },
  { name: "GET /v1/projects/{p}/change-requests", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/change-requests?status=open", call: use(ChangeRequests, (c) => c.list("p1", "open")) }) },
  {
    name: "GET /v1/projects/{p}/change-requests/{id}",
    kind: "management",
    needs: "read",
    success: 200,
    // A request to development: the key bound to production reads only its own environment's.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { id, path } = await freshChangeRequest(t, n)
      return { method: "GET", path, call: use(ChangeRequests, (c) => c.get("p1", id)) }
    }
  },
  {
    name: "PUT /v1/projects/{p}/change-requests/{id}",
    kind: "management",
    needs: "propose",
    // The route lets the key through; the use case refuses: only the author updates (the operator opened it).
    success: 403,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { id, path } = await freshChangeRequest(t, n)
      const body = { changes: [{ flagKey: `proposed-${n}`, targeting: { ...TARGETING, enabled: false } }] }
      return { method: "PUT", path, body, call: use(ChangeRequests, (c) => c.update("p1", id, body)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/approve",
    kind: "management",
    needs: "approve",
    success: 200,
    // Approvals are people's: no key approves, however wide.
    forKeys: forbidden(PeopleMessages.keyApproves),
    prepare: async (t, n) => {
      const { id, path } = await freshChangeRequest(t, n)
      return { method: "POST", path: `${path}/approve`, body: {}, call: use(ChangeRequests, (c) => c.approve("p1", id, {})) }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/reject",
    kind: "management",
    needs: "approve",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { id, path } = await freshChangeRequest(t, n)
      return { method: "POST", path: `${path}/reject`, body: { comment: "No" }, call: use(ChangeRequests, (c) => c.reject("p1", id, { comment: "No" })) }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/cancel",
    kind: "management",
    needs: "propose",
    // An editor who is not the author may not cancel it (the author or an admin).
    forPerson: { editor: forbidden(ChangeRequestMessages.cancelRefused) },
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { id, path } = await freshChangeRequest(t, n)
      return { method: "POST", path: `${path}/cancel`, call: use(ChangeRequests, (c) => c.cancel("p1", id)) }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/apply",
    kind: "management",
    needs: "propose",
    // Past the route, the use case's answer: not approved yet.
    success: 409,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => {
      const { id, path } = await freshChangeRequest(t, n)
      return { method: "POST", path: `${path}/apply`, call: use(ChangeRequests, (c) => c.apply("p1", id)) }
    }
  },
]
