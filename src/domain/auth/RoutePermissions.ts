/**
 * The route table of the HttpApi security middleware: what each management route needs of its
 * caller. It goes once every use case decides for itself (Permissions.ts, OPERATIONS); until then
 * its rows equal the operations' the routes call.
 */
import type { Requirement } from "./Permissions.js"
import type { Permission } from "../people/Grants.js"

const inProject = (permission: Permission): Requirement => ({ _tag: "Project", permission })
const read = inProject("read")
const write = inProject("write")
const manage = inProject("manage")
const propose = inProject("propose")
const approve = inProject("approve")
const globalAdmin: Requirement = { _tag: "GlobalAdmin" }

export const ROUTE_REQUIREMENTS: { readonly [route: string]: Requirement } = {
  "GET /v1/projects": { _tag: "ListProjects" },
  "POST /v1/projects": globalAdmin,

  "GET /v1/projects/{projectId}/environments": read,
  "POST /v1/projects/{projectId}/environments": manage,
  "PATCH /v1/projects/{projectId}/environments/{environmentKey}": manage,
  // A copy writes flags' targeting into the environment, as PUT .../targeting does.
  "POST /v1/projects/{projectId}/environments/{environmentKey}/copy": write,

  "GET /v1/projects/{projectId}/flags": read,
  "POST /v1/projects/{projectId}/flags": write,
  "GET /v1/projects/{projectId}/flags/{flagKey}": read,
  "PATCH /v1/projects/{projectId}/flags/{flagKey}": write,
  "DELETE /v1/projects/{projectId}/flags/{flagKey}": write,
  "GET /v1/projects/{projectId}/flags/{flagKey}/targeting": read,
  "PUT /v1/projects/{projectId}/flags/{flagKey}/targeting": write,
  "GET /v1/projects/{projectId}/flags/{flagKey}/insights": read,

  "GET /v1/projects/{projectId}/flags/{flagKey}/schedules": read,
  "POST /v1/projects/{projectId}/flags/{flagKey}/schedules": write,
  "DELETE /v1/projects/{projectId}/flags/{flagKey}/schedules/{scheduleId}": write,
  "GET /v1/projects/{projectId}/schedules": read,

  // Change requests: who among those is the author or an approver is the use case's to check
  // (ChangeRequestRuleTable.ts): cancel is the author's or an admin's, apply the author's or an approver's.
  "POST /v1/projects/{projectId}/change-requests": propose,
  "GET /v1/projects/{projectId}/change-requests": read,
  "GET /v1/projects/{projectId}/change-requests/{changeRequestId}": read,
  "PUT /v1/projects/{projectId}/change-requests/{changeRequestId}": propose,
  "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/approve": approve,
  "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/reject": approve,
  "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/cancel": propose,
  "POST /v1/projects/{projectId}/change-requests/{changeRequestId}/apply": propose,

  "GET /v1/projects/{projectId}/segments": read,
  "POST /v1/projects/{projectId}/segments": write,
  "GET /v1/projects/{projectId}/segments/{segmentKey}": read,
  "PATCH /v1/projects/{projectId}/segments/{segmentKey}": write,
  "DELETE /v1/projects/{projectId}/segments/{segmentKey}": write,

  "GET /v1/projects/{projectId}/audit": read,
  // The live form of the audit log (each event is a summary of one entry).
  "GET /v1/projects/{projectId}/events": read,
  "GET /v1/projects/{projectId}/codegen/typescript": read,
  // Flags as code: the route needs write; what each change of the plan needs besides (manage for
  // an environment, a global administrator for a new project) the handler checks on the plan.
  "GET /v1/projects/{projectId}/export": read,
  "POST /v1/projects/{projectId}/apply": write,

  // Webhooks, keys and members are the project admin's (reading them too: a webhook's URL and a
  // key's name are configuration of the project, not of its flags).
  "GET /v1/projects/{projectId}/webhooks": manage,
  "POST /v1/projects/{projectId}/webhooks": manage,
  "GET /v1/projects/{projectId}/webhooks/{webhookId}": manage,
  "PATCH /v1/projects/{projectId}/webhooks/{webhookId}": manage,
  "DELETE /v1/projects/{projectId}/webhooks/{webhookId}": manage,
  "GET /v1/projects/{projectId}/webhooks/{webhookId}/deliveries": manage,
  "POST /v1/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": manage,

  "GET /v1/projects/{projectId}/keys": manage,
  "POST /v1/projects/{projectId}/keys": manage,
  "DELETE /v1/projects/{projectId}/keys/{keyId}": manage,

  "GET /v1/projects/{projectId}/members": manage,
  "PUT /v1/projects/{projectId}/members/{userId}": manage,
  "DELETE /v1/projects/{projectId}/members/{userId}": manage,

  "GET /v1/users": globalAdmin,
  "POST /v1/users": globalAdmin,
  "PATCH /v1/users/{id}": globalAdmin,
  "POST /v1/users/{id}/reset-password": globalAdmin
}

/** `GET /v1/projects/{projectId}` from a method and a route template (`:projectId` or `{projectId}`). */
export const routeKey = (method: string, template: string): string =>
  `${method.toUpperCase()} ${template.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`

/** What the route needs; undefined for a route that is not in the table (the middleware answers 500: a bug). */
export const requirementOf = (method: string, template: string): Requirement | undefined =>
  Object.hasOwn(ROUTE_REQUIREMENTS, routeKey(method, template)) ? ROUTE_REQUIREMENTS[routeKey(method, template)] : undefined
