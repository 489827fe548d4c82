/** The declarations of a project's API keys: listed, made and revoked (secrets shown once, at creation). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { ApiKey, CreatedApiKey, CreateProjectKeyInput } from "../../../../src/domain/auth/ApiKey.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described, keyId, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

// The resources with their examples: one instance of each, so every operation refers to one component.
const ApiKeyDoc = ApiKey.annotations({ examples: [Examples.apiKey] })
const CreatedApiKeyDoc = CreatedApiKey.annotations({ examples: [Examples.createdKey] })

export class KeysGroup extends HttpApiGroup.make("keys")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/keys`.addSuccess(dataOf(ApiKeyDoc)),
    "List a project's API keys",
    "The keys scoped to the project, each with its name, type and prefix; the secrets themselves are never returned. A key bound to an environment lists only the keys bound to that same environment (itself among them)."
  ))
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/keys`
      .setPayload(strict(CreateProjectKeyInput).annotations({ examples: [Examples.createKey] }))
      .addSuccess(Created(CreatedApiKeyDoc)),
    "Create an API key",
    "Makes a server or client key scoped to the project. The secret is in `key` in this answer only: store it now, it cannot be read again."
  ))
  .add(described(
    HttpApiEndpoint.del("revoke")`/v1/projects/${projectId}/keys/${keyId}`.addSuccess(HttpApiSchema.NoContent)
      .addError(Errors.Conflict),
    "Revoke an API key",
    "Revokes a key of the project at once: requests with it then answer 401. A key cannot revoke itself (409). A key bound to an environment revokes only keys bound to that same environment (403 for another)."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "API keys of a project: server keys manage and evaluate, client keys only evaluate.") {}
