/** The declaration of `/v1/me`: the signed-in person, behind the session middleware (an API key has no person). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { described } from "../Declaring.js"
import { SessionAuth } from "../Security.js"
import { SignedInDoc } from "./PeopleDocs.js"

export class MeGroup extends HttpApiGroup.make("me")
  .add(described(
    HttpApiEndpoint.get("me", "/v1/me").addSuccess(SignedInDoc),
    "The signed-in person",
    "The person of the session cookie with their memberships (`[{ projectId, role }]`); 401 without a session (an API key has no person)."
  ))
  .middleware(SessionAuth)
  .annotate(OpenApi.Description, "The signed-in person.") {}
