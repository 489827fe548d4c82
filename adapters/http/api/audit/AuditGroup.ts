/** The declaration of a project's audit log: who changed what, and when. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { AuditPage, AuditQuery } from "../../../../src/domain/audit/AuditPage.js"
import * as Errors from "../../shared/Errors.js"
import { described, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

// The resource with its example: one instance, so every operation refers to one component.
const AuditPageDoc = AuditPage.annotations({ examples: [Examples.auditPage] })

export class AuditGroup extends HttpApiGroup.make("audit")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/audit`.setUrlParams(AuditQuery).addSuccess(AuditPageDoc),
    "Read a project's audit log",
    "Every management write of the project (flags, targeting, segments, webhooks, environments, the project, its keys), newest first: who (`actor`: the API key, or `cli` for the command line), what (`action`, the event name, and `resource`), when, and the resource before and after as the API shows it (never a secret). Narrow it with `resourceType`, `resourceKey` and `environment`; page with `limit` (1-200, default 50) and `cursor` (the previous page's `nextCursor`). A key bound to an environment reads the entries of that environment and of none (not an unbound key's, which it does not list), flags in them with that environment's configuration only (a page may then hold fewer than `limit`); `environment=` another is 403."
  ))
  .addError(Errors.NotFound)
  .middleware(ManagementAuth)
  .annotate(OpenApi.Description, "The audit log: who changed what, and when.") {}
