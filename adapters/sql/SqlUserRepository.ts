import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Role } from "../../src/domain/people/Role.js"
import { normalizeEmail, type User } from "../../src/domain/people/User.js"
import { NotFound } from "../../src/ports/StorageError.js"
import { UserRepository } from "../../src/ports/UserRepository.js"
import { decodeRows, SqlBoolean, SqlInteger } from "./SqlRows.js"
import { boolParam, orDuplicate, orFail } from "./SqlSupport.js"

/**
 * Users by id, unique by `email_normalized`; memberships unique per (user, project). The password
 * hash is read only by `getPasswordHash`: the user queries never select it.
 */

const UserRow = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  name: Schema.String,
  admin: SqlBoolean,
  sso: SqlBoolean,
  created_at: Schema.String,
  last_sign_in_at: Schema.NullOr(Schema.String),
  disabled_at: Schema.NullOr(Schema.String)
})
const MemberRow = Schema.Struct({ ...UserRow.fields, role: Role })
const MembershipRow = Schema.Struct({ project_id: Schema.String, role: Role })
const HashRow = Schema.Struct({ password_hash: Schema.NullOr(Schema.String) })
const CountRow = Schema.Struct({ n: SqlInteger })
const UserIdRow = Schema.Struct({ user_id: Schema.String })

const decodeUsers = decodeRows(UserRow, "flagport_users")
const decodeMembers = decodeRows(MemberRow, "flagport_users", { role: "flagport_memberships" })
const decodeMemberships = decodeRows(MembershipRow, "flagport_memberships")
const decodeHashes = decodeRows(HashRow, "flagport_users")
const decodeCounts = decodeRows(CountRow, "flagport_users")
const decodeUserIds = decodeRows(UserIdRow, "flagport_memberships")

const toUser = (row: typeof UserRow.Type): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  admin: row.admin,
  createdAt: row.created_at,
  lastSignInAt: row.last_sign_in_at,
  disabledAt: row.disabled_at,
  sso: row.sso
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dialect = sql.onDialectOrElse({ sqlite: () => "sqlite", pg: () => "pg", orElse: () => "other" })
  const columns = sql.literal("id, email, name, admin, sso, created_at, last_sign_in_at, disabled_at")
  const one = (rows: ReadonlyArray<typeof UserRow.Type>) => Option.map(Option.fromNullable(rows[0]), toUser)
  const getUser = (id: string) =>
    orFail(sql`SELECT ${columns} FROM flagport_users WHERE id = ${id}`).pipe(Effect.flatMap(decodeUsers), Effect.map(one))

  return UserRepository.of({
    insert: (user) =>
      orDuplicate("user", user.email)(
        sql`INSERT INTO flagport_users ${sql.insert({
          id: user.id,
          email: user.email,
          email_normalized: normalizeEmail(user.email),
          name: user.name,
          admin: boolParam(dialect, user.admin),
          sso: boolParam(dialect, user.sso),
          password_hash: null,
          created_at: user.createdAt,
          last_sign_in_at: user.lastSignInAt,
          disabled_at: user.disabledAt
        })}`
      ).pipe(Effect.asVoid),
    get: getUser,
    findByEmail: (normalized) =>
      orFail(sql`SELECT ${columns} FROM flagport_users WHERE email_normalized = ${normalized}`).pipe(Effect.flatMap(decodeUsers), Effect.map(one)),
    list: () =>
      orFail(sql`SELECT ${columns} FROM flagport_users ORDER BY seq`).pipe(Effect.flatMap(decodeUsers), Effect.map((rows) => rows.map(toUser))),
    update: (user) =>
      orDuplicate("user", user.email)(
        sql`UPDATE flagport_users SET
          email = ${user.email},
          email_normalized = ${normalizeEmail(user.email)},
          name = ${user.name},
          admin = ${boolParam(dialect, user.admin)},
          sso = ${boolParam(dialect, user.sso)},
          last_sign_in_at = ${user.lastSignInAt},
          disabled_at = ${user.disabledAt}
        WHERE id = ${user.id} RETURNING id`
      ).pipe(Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "user", key: user.id })) : Effect.void))),
    getPasswordHash: (id) =>
      orFail(sql`SELECT password_hash FROM flagport_users WHERE id = ${id}`).pipe(
        Effect.flatMap(decodeHashes),
        Effect.map((rows) => Option.fromNullable(rows[0]?.password_hash))
      ),
    setPasswordHash: (id, hash) =>
      orFail(sql`UPDATE flagport_users SET password_hash = ${hash} WHERE id = ${id} RETURNING id`).pipe(
        Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(new NotFound({ entity: "user", key: id })) : Effect.void))
      ),
    membershipsOf: (userId) =>
      orFail(sql`SELECT project_id, role FROM flagport_memberships WHERE user_id = ${userId} ORDER BY project_id`).pipe(
        Effect.flatMap(decodeMemberships),
        Effect.map((rows) => rows.map((row) => ({ projectId: row.project_id, role: row.role })))
      ),
    membersOf: (projectId) =>
      orFail(
        sql`SELECT u.id, u.email, u.name, u.admin, u.sso, u.created_at, u.last_sign_in_at, u.disabled_at, m.role
          FROM flagport_memberships m JOIN flagport_users u ON u.id = m.user_id
          WHERE m.project_id = ${projectId} ORDER BY m.seq`
      ).pipe(
        Effect.flatMap(decodeMembers),
        Effect.map((rows) => rows.map((row) => ({ user: toUser(row), role: row.role })))
      ),
    putMembership: (userId, projectId, role) =>
      Effect.gen(function* () {
        // One statement that adds or changes the membership only when both the user and the
        // project exist (no foreign key error to tell apart); no row back means one is missing.
        const rows = yield* orFail(
          sql`INSERT INTO flagport_memberships (user_id, project_id, role)
            SELECT u.id, p.id, ${role} FROM flagport_users u, flagport_projects p WHERE u.id = ${userId} AND p.id = ${projectId}
            ON CONFLICT (user_id, project_id) DO UPDATE SET role = excluded.role
            RETURNING user_id`
        ).pipe(Effect.flatMap(decodeUserIds))
        if (rows.length > 0) return
        const user = yield* getUser(userId)
        return yield* Option.isNone(user) ? new NotFound({ entity: "user", key: userId }) : new NotFound({ entity: "project", key: projectId })
      }),
    // A write that changes nothing: the row's lock on PostgreSQL; on SQLite the database's write
    // lock, taken before the transaction reads (so another process's transaction waits its turn).
    lockUser: (userId) => orFail(sql`UPDATE flagport_users SET id = id WHERE id = ${userId}`).pipe(Effect.asVoid),
    removeMembership: (userId, projectId) =>
      orFail(sql`DELETE FROM flagport_memberships WHERE user_id = ${userId} AND project_id = ${projectId} RETURNING user_id`).pipe(
        Effect.flatMap(decodeUserIds),
        Effect.map((rows) => rows.length > 0)
      ),
    lockAdmins: () =>
      sql.onDialectOrElse({
        pg: () => orFail(sql`SELECT pg_advisory_xact_lock(72460315)`).pipe(Effect.asVoid),
        orElse: () => Effect.void // BEGIN IMMEDIATE: the write lock is held from the transaction's start
      }),
    countAdmins: () =>
      orFail(
        sql`SELECT COUNT(*) AS n FROM flagport_users WHERE admin = ${boolParam(dialect, true)} AND disabled_at IS NULL`
      ).pipe(Effect.flatMap(decodeCounts), Effect.map((rows) => rows[0]?.n ?? 0))
  })
})

export const layer = Layer.effect(UserRepository, make)
