/** A project's member as `GET /v1/projects/{p}/members` and the CLI show it: the person and their role there. */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Role } from "./Role.js"
import { User } from "./User.js"

export const Member = Schema.Struct({
  user: User,
  role: Role
}).annotations(documentName("Member"))
export type Member = typeof Member.Type
