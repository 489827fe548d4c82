import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { Member } from "../../src/domain/people/Member.js"
import type { Membership, Role } from "../../src/domain/people/Role.js"
import { normalizeEmail, type User } from "../../src/domain/people/User.js"
import { ProjectRepository } from "../../src/ports/ProjectRepository.js"
import { DuplicateKey, NotFound } from "../../src/ports/StorageError.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { jsonCopy, MemoryDb } from "./MemoryDb.js"

/**
 * The reference UserRepository: users by id with their normalized email (unique) and password
 * hash kept beside the record, and memberships by user and project, in the order they were added.
 */

interface UserRow {
  readonly user: User
  readonly normalized: string
  readonly passwordHash: string | null
}

interface MembershipRow {
  readonly userId: string
  readonly projectId: string
  readonly role: Role
}

const membershipId = (userId: string, projectId: string) => `${userId}\u0000${projectId}`

export const layer = Layer.effect(
  UserRepository,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const projects = yield* ProjectRepository
    const users = db.makeRef<ReadonlyMap<string, UserRow>>("users", new Map())
    const memberships = db.makeRef<ReadonlyMap<string, MembershipRow>>("memberships", new Map())

    const emailTaken = (map: ReadonlyMap<string, UserRow>, normalized: string, exceptId: string) =>
      Array.from(map.values()).some((row) => row.normalized === normalized && row.user.id !== exceptId)

    const setRow = (id: string, f: (row: UserRow) => UserRow) =>
      users.modify((map) => {
        const row = map.get(id)
        if (row === undefined) return [false, map]
        return [true, new Map(map).set(id, f(row))]
      })

    return UserRepository.of({
      insert: (user) =>
        users.modify((map) => {
          const normalized = normalizeEmail(user.email)
          if (map.has(user.id) || emailTaken(map, normalized, user.id)) return [false, map]
          return [true, new Map(map).set(user.id, { user: jsonCopy(user), normalized, passwordHash: null })]
        }).pipe(Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new DuplicateKey({ entity: "user", key: user.email }))))),
      get: (id) => Effect.map(users.get, (map) => Option.map(Option.fromNullable(map.get(id)), (row) => row.user)),
      findByEmail: (normalized) =>
        Effect.map(users.get, (map) =>
          Option.map(Option.fromNullable(Array.from(map.values()).find((row) => row.normalized === normalized)), (row) => row.user)
        ),
      list: () => Effect.map(users.get, (map) => Array.from(map.values(), (row) => row.user)),
      update: (user) =>
        users.modify((map): readonly [NotFound | DuplicateKey | null, ReadonlyMap<string, UserRow>] => {
          const row = map.get(user.id)
          if (row === undefined) return [new NotFound({ entity: "user", key: user.id }), map]
          const normalized = normalizeEmail(user.email)
          if (emailTaken(map, normalized, user.id)) return [new DuplicateKey({ entity: "user", key: user.email }), map]
          return [null, new Map(map).set(user.id, { ...row, user: jsonCopy(user), normalized })]
        }).pipe(Effect.flatMap((error) => (error === null ? Effect.void : Effect.fail(error)))),
      lockUser: () => Effect.void, // memory transactions do not interleave their writes
      getPasswordHash: (id) => Effect.map(users.get, (map) => Option.fromNullable(map.get(id)?.passwordHash)),
      setPasswordHash: (id, hash) =>
        setRow(id, (row) => ({ ...row, passwordHash: hash })).pipe(
          Effect.flatMap((ok) => (ok ? Effect.void : Effect.fail(new NotFound({ entity: "user", key: id }))))
        ),
      membershipsOf: (userId) =>
        Effect.map(memberships.get, (map) =>
          Array.from(map.values())
            .filter((row) => row.userId === userId)
            .map((row): Membership => ({ projectId: row.projectId, role: row.role }))
            .sort((a, b) => (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0))
        ),
      membersOf: (projectId) =>
        Effect.gen(function* () {
          const people = yield* users.get
          const rows = Array.from((yield* memberships.get).values()).filter((row) => row.projectId === projectId)
          return rows.flatMap((row): Array<Member> => {
            const found = people.get(row.userId)
            return found === undefined ? [] : [{ user: found.user, role: row.role }]
          })
        }),
      putMembership: (userId, projectId, role) =>
        Effect.gen(function* () {
          if (Option.isNone(yield* projects.get(projectId))) return yield* new NotFound({ entity: "project", key: projectId })
          if (!(yield* users.get).has(userId)) return yield* new NotFound({ entity: "user", key: userId })
          yield* memberships.update((map) => new Map(map).set(membershipId(userId, projectId), { userId, projectId, role }))
        }),
      removeMembership: (userId, projectId) =>
        memberships.modify((map) => {
          const id = membershipId(userId, projectId)
          if (!map.has(id)) return [false, map]
          const next = new Map(map)
          next.delete(id)
          return [true, next]
        }),
      lockAdmins: () => Effect.void, // memory transactions do not interleave their writes
      countAdmins: () =>
        Effect.map(users.get, (map) => Array.from(map.values()).filter((row) => row.user.admin && row.user.disabledAt === null).length)
    })
  })
)
