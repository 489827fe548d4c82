/** The declaration of `GET /health`: liveness and a database check, without authentication. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import * as Errors from "../../shared/Errors.js"

export const Health = Schema.Struct({
  status: Schema.Literal("ok"),
  database: Schema.Literal("ok")
})

export class HealthGroup extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .addSuccess(Health)
      .addError(Errors.Unavailable)
      .annotate(OpenApi.Summary, "Liveness and a database check")
      .annotate(OpenApi.Description, "Answers 200 when the process is up and the database answers a trivial query, 503 when the database cannot be reached. No authentication, so load balancers and orchestrators can probe it.")
  )
  .annotate(OpenApi.Description, "Service endpoints (no authentication)") {}
