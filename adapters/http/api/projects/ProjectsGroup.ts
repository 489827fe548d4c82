/** The declarations of projects: the unit of ownership of flags, segments, environments and webhooks. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { CreateProjectInput, Project } from "../../../../src/domain/definitions/Project.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { TopLevelAuth } from "../Security.js"

// The resource with its example: one instance, so every operation refers to one component.
const ProjectDoc = Project.annotations({ examples: [Examples.project] })

export class ProjectsGroup extends HttpApiGroup.make("projects")
  .add(described(
    HttpApiEndpoint.get("list", "/v1/projects").addSuccess(dataOf(ProjectDoc)),
    "List projects",
    "The projects the key may manage: all of them for a global server key, its own project for a project-scoped one."
  ))
  .add(described(
    HttpApiEndpoint.post("create", "/v1/projects").setPayload(strict(CreateProjectInput).annotations({ examples: [Examples.createProject] })).addSuccess(Created(ProjectDoc))
      .addError(Errors.Conflict),
    "Create a project",
    "Creates an empty project (add environments with POST .../environments). Needs a global server key; 409 when the id is taken."
  ))
  .middleware(TopLevelAuth)
  .annotate(OpenApi.Description, "Projects: the unit of ownership of flags, segments, environments and webhooks.") {}
