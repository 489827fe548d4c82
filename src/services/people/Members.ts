/**
 * Roles per project (docs/guide/people.md, "Roles per project"): who is a member of a project and as
 * what. Each change is a write recorded in the project's audit log.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Forbidden, ResourceNotFound } from "../../domain/Errors.js"
import { memberNotFound, userNotFound } from "../../domain/NotFound.js"
import type { Member } from "../../domain/people/Member.js"
import type { Role } from "../../domain/people/Role.js"
import { projectNotFound } from "../../domain/NotFound.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { SessionRepository } from "../../ports/SessionRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { UserRepository } from "../../ports/UserRepository.js"
import { shownMembership } from "./PeopleSupport.js"
import { authorize } from "../shared/Authorize.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"
import * as MakerKeys from "../auth/MakerKeys.js"
import { roleAllows } from "../../domain/people/Grants.js"

/** A project's members are its admins' (`manage`: domain/auth/Permissions.ts). */
export interface MembersShape {
  /** The project's members with their roles, in the order they were added; 404 for an unknown project. */
  readonly list: (projectId: string) => Effect.Effect<ReadonlyArray<Member>, ResourceNotFound | Forbidden | StorageError>
  /**
   * Gives the user `role` in the project (added, or their role changed); 404 for an unknown project
   * or user. A project admin made editor or viewer loses the keys they made in the project (unless
   * a global admin).
   */
  readonly put: (projectId: string, userId: string, role: Role) => Effect.Effect<Member, ResourceNotFound | Forbidden | StorageError>
  /**
   * Removes the user from the project; 404 for an unknown project or a user who is not a member.
   * Removing the last membership of someone who is not a global admin ends their sessions (they can
   * reach nothing any more); the keys they made in the project are revoked (unless a global admin).
   */
  readonly remove: (projectId: string, userId: string) => Effect.Effect<void, ResourceNotFound | Forbidden | StorageError>
}

export class Members extends Context.Tag("@flagport/services/Members")<Members, MembersShape>() {}

export const make = Effect.gen(function* () {
  const users = yield* UserRepository
  const sessions = yield* SessionRepository
  const projects = yield* ProjectRepository
  const writes = yield* Writes.writer
  const revokeKeysOf = yield* MakerKeys.revoker

  const requireUser = (id: string) =>
    Effect.flatMap(users.get(id), (found) => (Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(userNotFound(id))))

  const list = Effect.fn("Members.list")(function* (projectId: string) {
    yield* authorize("Members.list", projectId)
    yield* requireProject(projects, projectId)
    return yield* users.membersOf(projectId)
  })

  const put = Effect.fn("Members.put")(function* (projectId: string, userId: string, role: Role) {
    yield* authorize("Members.put", projectId)
    yield* requireProject(projects, projectId)
    const user = yield* requireUser(userId)
    const before = (yield* users.membershipsOf(userId)).find((m) => m.projectId === projectId)
    return yield* writes.record(projectId, () =>
      Effect.gen(function* () {
        yield* users.putMembership(userId, projectId, role).pipe(
          Effect.catchTag("NotFound", (missing) => Effect.fail(missing.entity === "user" ? userNotFound(userId) : projectNotFound(projectId)))
        )
        // Losing `manage` here revokes the keys they made in this project (a global admin keeps them).
        if (before !== undefined && roleAllows(before.role, "manage") && !roleAllows(role, "manage")) {
          yield* revokeKeysOf(userId, MakerKeys.MakerReasons.roleChanged)
        }
        const member: Member = { user, role }
        return {
          value: member,
          audit: [
            {
              action: "member.put",
              resource: { type: "member" as const, key: userId },
              before: before === undefined ? null : shownMembership(user, before.role),
              after: shownMembership(user, role)
            }
          ]
        }
      })
    )
  })

  const remove = Effect.fn("Members.remove")(function* (projectId: string, userId: string) {
    yield* authorize("Members.remove", projectId)
    yield* requireProject(projects, projectId)
    const user = yield* requireUser(userId)
    return yield* writes.record(projectId, () =>
      Effect.gen(function* () {
        // One removal of this person's memberships at a time: of two at the same moment, the
        // second counts after the first has committed.
        yield* users.lockUser(userId)
        const before = (yield* users.membershipsOf(userId)).find((m) => m.projectId === projectId)
        if (before === undefined || !(yield* users.removeMembership(userId, projectId))) return yield* memberNotFound(projectId, userId)
        // Counted again after the removal, in this transaction: none left ends their sessions.
        if ((yield* users.membershipsOf(userId)).length === 0 && !user.admin) yield* sessions.deleteForUser(userId)
        yield* revokeKeysOf(userId, MakerKeys.MakerReasons.removed)
        return {
          value: undefined,
          audit: [{ action: "member.removed", resource: { type: "member" as const, key: userId }, before: shownMembership(user, before.role), after: null }]
        }
      })
    )
  })

  return Members.of({ list, put, remove })
})

export const layer = Layer.effect(Members, make)
