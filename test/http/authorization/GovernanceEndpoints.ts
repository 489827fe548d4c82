/** The matrix rows of the audit log, schedules and change requests. */
import { PeopleMessages } from "../../../src/domain/auth/PeopleMessages.js"
import { Messages } from "../../../src/domain/auth/Policy.js"
import { ChangeRequestMessages } from "../../../src/domain/changes/ChangeRequestRules.js"
import { request } from "../fixtures.js"
import { admin, create, type Endpoint, forbidden, freshChangeRequest, freshFlag } from "./Endpoint.js"

export const GOVERNANCE_ENDPOINTS: ReadonlyArray<Endpoint> = [
  { name: "GET /v1/projects/{p}/audit", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/audit" }) },
  { name: "GET /v1/projects/{p}/events", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/events" }) },
  {
    name: "POST /v1/projects/{p}/flags/{f}/schedules",
    kind: "management",
    needs: "write",
    success: 201,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({
      method: "POST",
      path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "schedule")).key}/schedules`,
      body: { environment: "development", at: "2999-01-01T09:00:00Z", targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }
    })
  },
  {
    name: "GET /v1/projects/{p}/flags/{f}/schedules",
    kind: "management",
    needs: "read",
    success: 200,
    prepare: async (t, n) => ({ method: "GET", path: `/v1/projects/p1/flags/${(await freshFlag(t, n, "schedules")).key}/schedules` })
  },
  {
    name: "GET /v1/projects/{p}/schedules",
    kind: "management",
    needs: "read",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async () => ({ method: "GET", path: "/v1/projects/p1/schedules?environment=development" })
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
      const schedule = await create(t, `/v1/projects/p1/flags/${flag.key}/schedules`, {
        environment: "development",
        at: "2999-01-01T09:00:00Z",
        targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] }
      })
      return { method: "DELETE", path: `/v1/projects/p1/flags/${flag.key}/schedules/${schedule.id}` }
    }
  },
  {
    name: "POST /v1/projects/{p}/change-requests",
    kind: "management",
    needs: "propose",
    success: 201,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({
      method: "POST",
      path: "/v1/projects/p1/change-requests",
      body: { title: "T", environment: "development", changes: [{ flagKey: (await freshFlag(t, n, "to-propose")).key, targeting: { enabled: true, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }] }
    })
  },
  { name: "GET /v1/projects/{p}/change-requests", kind: "management", needs: "read", success: 200, prepare: async () => ({ method: "GET", path: "/v1/projects/p1/change-requests?status=open" }) },
  {
    name: "GET /v1/projects/{p}/change-requests/{id}",
    kind: "management",
    needs: "read",
    success: 200,
    // A request to development: the key bound to production reads only its own environment's.
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "GET", path: await freshChangeRequest(t, n) })
  },
  {
    name: "PUT /v1/projects/{p}/change-requests/{id}",
    kind: "management",
    needs: "propose",
    // The route lets the key through; the use case refuses: only the author updates (the operator opened it).
    success: 403,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "PUT", path: await freshChangeRequest(t, n), body: { changes: [{ flagKey: `proposed-${n}`, targeting: { enabled: false, defaultVariationKey: "a", offVariationKey: "b", rules: [] } }] } })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/approve",
    kind: "management",
    needs: "approve",
    success: 200,
    // Approvals are people's: no key approves, however wide.
    forKeys: forbidden(PeopleMessages.keyApproves),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/approve`, body: {} })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/reject",
    kind: "management",
    needs: "approve",
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/reject`, body: { comment: "No" } })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/cancel",
    kind: "management",
    needs: "propose",
    // An editor who is not the author may not cancel it (the author or an admin).
    forPerson: { editor: forbidden(ChangeRequestMessages.cancelRefused) },
    success: 200,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/cancel` })
  },
  {
    name: "POST /v1/projects/{p}/change-requests/{id}/apply",
    kind: "management",
    needs: "propose",
    // Past the route, the use case's answer: not approved yet.
    success: 409,
    boundServer: forbidden(Messages.environmentMismatch),
    prepare: async (t, n) => ({ method: "POST", path: `${await freshChangeRequest(t, n)}/apply` })
  },
]
