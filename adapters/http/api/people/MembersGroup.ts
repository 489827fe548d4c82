/** The declarations of a project's members and their roles (viewer, editor, admin; docs/guide/people.md). */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Text } from "../../../../src/domain/definitions/Text.js"
import { documentName } from "../../../../src/domain/DocumentName.js"
import { Member } from "../../../../src/domain/people/Member.js"
import { Role } from "../../../../src/domain/people/Role.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { dataOf, described, projectId } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"
import { UserDoc } from "./PeopleDocs.js"

const userId = HttpApiSchema.param("userId", Text)

// Built from UserDoc (not the domain's Member, whose User has no example), so the one User component carries its example.
const MemberDoc = Schema.Struct({ ...Member.fields, user: UserDoc }).annotations({ ...documentName("Member"), examples: [Examples.member] })

export const MemberInput = strict(Schema.Struct({ role: Role }).annotations({ ...documentName("MemberInput"), examples: [Examples.memberRole] }))

export class MembersGroup extends HttpApiGroup.make("members")
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/members`.addSuccess(dataOf(MemberDoc)),
    "List a project's members",
    "Every member of the project with their role. Project admins and global administrators."
  ))
  .add(described(
    HttpApiEndpoint.put("put")`/v1/projects/${projectId}/members/${userId}`.setPayload(MemberInput).addSuccess(MemberDoc),
    "Add a member or change their role",
    "Makes the user a member of the project with the role (`viewer`, `editor` or `admin`), or changes their role."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/members/${userId}`.addSuccess(HttpApiSchema.NoContent),
    "Remove a member",
    "The user is no longer a member of the project; removing their last membership ends their sessions."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Members of a project and their roles (viewer, editor, admin).") {}
