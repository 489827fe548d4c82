/**
 * Pure checks of what people type in (the CLI's flags, the HTTP bodies, which also decode them
 * with the schemas): every problem with its path, an empty array when all is well. The services
 * check again, so a host calling them directly gets the same 400.
 */
import * as Schema from "effect/Schema"
import type { Problem } from "../Errors.js"
import { isStorableText } from "../definitions/Text.js"
import { passwordLengthProblem } from "./PasswordRule.js"
import { Email } from "./User.js"

export const USER_NAME_MAX = 120

const isEmail = Schema.is(Email)

export const emailProblems = (email: string, path = "email"): ReadonlyArray<Problem> =>
  isEmail(email) ? [] : [{ path, message: "must be an email address (name@domain)" }]

export const nameProblems = (name: string | undefined, path = "name"): ReadonlyArray<Problem> => {
  if (name === undefined) return []
  if (!isStorableText(name)) return [{ path, message: "must be valid text without the NUL character" }]
  return name.length > USER_NAME_MAX ? [{ path, message: `must be at most ${USER_NAME_MAX} characters` }] : []
}

export const passwordProblems = (password: string, path = "password"): ReadonlyArray<Problem> => {
  const message = passwordLengthProblem(password)
  return message === undefined ? [] : [{ path, message }]
}

/** The same project twice in one list of memberships. */
export const membershipListProblems = (projectIds: ReadonlyArray<string>, path = "projects"): ReadonlyArray<Problem> =>
  projectIds.flatMap((id, i) => (projectIds.indexOf(id) < i ? [{ path: `${path}[${i}].projectId`, message: `repeats project '${id}'` }] : []))
