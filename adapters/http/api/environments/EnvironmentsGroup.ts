/** The declarations of a project's environments: their settings, and copying flag configurations between them. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { CopyEnvironmentInput } from "../../../../src/domain/definitions/CopyEnvironmentInput.js"
import { CreateEnvironmentInput, Environment, UpdateEnvironmentInput } from "../../../../src/domain/definitions/Project.js"
import { documentName } from "../../../../src/domain/DocumentName.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described, environmentKey, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"
import { IfMatchHeaders } from "../Versioning.js"

// The resource with its example: one instance, so every operation refers to one component.
const EnvironmentDoc = Environment.annotations({ examples: [Examples.environment] })

const CopiedFlagsDoc = dataOf(Schema.String).annotations({
  ...documentName("CopiedFlags"),
  description: "The keys of the flags whose configuration changed.",
  examples: [Examples.copied]
})

export class EnvironmentsGroup extends HttpApiGroup.make("environments")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/environments`.addSuccess(dataOf(EnvironmentDoc)),
    "List environments",
    "The environments of a project, in creation order."
  ))
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/environments`
      .setPayload(strict(CreateEnvironmentInput).annotations({ examples: [Examples.createEnvironment] }))
      .addSuccess(Created(EnvironmentDoc))
      .addError(Errors.Conflict),
    "Create an environment",
    "Adds an environment to a project; every existing flag gets a configuration in it (disabled, serving its off variation). 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.patch("update")`/v1/projects/${projectId}/environments/${environmentKey}`
      .setPayload(strict(UpdateEnvironmentInput).annotations({ examples: [{ clientConfig: "evaluated" }, { protected: true, requiredApprovals: 2 }] }))
      .addSuccess(EnvironmentDoc)
      .addError(Errors.Conflict),
    "Change an environment's settings",
    "Changes the settings given and keeps the others; answers the environment. `name`: its display name. `protected`: people then change its targeting, schedules and copies into it only through an approved change request (409 `change_request_required` otherwise; server keys keep writing directly), and `requiredApprovals` (1-5, default 1) is how many approvals such a request needs; a new number holds at once for the environment's open and approved requests (each counted again, audited as `change_request.updated`; 409 only if one kept changing meanwhile). `clientConfig`: `full` (the default, the specification's) lets client keys fetch `GET /v1/config`, rules and segments (with their values) included; `evaluated` gives client keys evaluated answers only (evaluate, OFREP, stream): `GET /v1/config` and `POST /v1/explain` (whose trace shows the rules' values) answer them 403. Server keys always get the configuration. A key bound to an environment changes only that one (403). Audited as `environment.updated`."
  ))
  .add(described(
    HttpApiEndpoint.post("copy")`/v1/projects/${projectId}/environments/${environmentKey}/copy`
      .setPayload(strict(CopyEnvironmentInput).annotations({ examples: [Examples.copyEnvironment] }))
      .setHeaders(IfMatchHeaders)
      .addSuccess(CopiedFlagsDoc)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.Conflict),
    "Copy flag configurations from another environment",
    "In one transaction, copies enabled, default and off variations and rules (with their ids) of each named flag (every flag when `flags` is absent) from `from` into this environment, and answers the keys of the flags whose configuration changed. `If-Match` needs exactly one flag in `flags`; 412 unless that flag is still at that version. 409 `change_request_required` when a person copies into a protected environment."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Environments of a project (for example `development`, `production`): each flag has one configuration per environment.") {}
