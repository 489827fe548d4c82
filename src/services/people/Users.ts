/**
 * People (docs/guide/people.md, "Users"): invitations with one-time setup links, accounts made with a
 * password (the CLI's `--password-stdin`), changes by global admins, password resets, and the
 * setup that turns a link into a password.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { CurrentActor } from "../../domain/audit/Actor.js"
import { CurrentCaller } from "../../domain/auth/Caller.js"
import { PeopleMessages } from "../../domain/auth/PeopleMessages.js"
import { formatTimestamp } from "../../domain/definitions/Ids.js"
import {
  Forbidden,
  InvalidRequest,
  type Problem,
  type RateLimited,
  ResourceConflict,
  type ResourceNotFound,
  type ServiceUnavailable
} from "../../domain/Errors.js"
import { userNotFound } from "../../domain/NotFound.js"
import type { Membership } from "../../domain/people/Role.js"
import { SETUP_TOKEN_LIFETIME_MS } from "../../domain/people/SetupLink.js"
import { isLocalhostEmail, LOCALHOST_NEVER_LINKED, SSO_LINK_ALLOWANCE_MS } from "../../domain/people/SsoLink.js"
import { normalizeEmail, type User } from "../../domain/people/User.js"
import { emailProblems, membershipListProblems, nameProblems, passwordProblems } from "../../domain/people/ValidatePerson.js"
import { Crypto } from "../../ports/Crypto.js"
import { IdGenerator } from "../../ports/IdGenerator.js"
import { ProjectRepository } from "../../ports/ProjectRepository.js"
import { SessionRepository } from "../../ports/SessionRepository.js"
import { SetupTokenRepository } from "../../ports/SetupTokenRepository.js"
import { SignInFailureRepository } from "../../ports/SignInFailureRepository.js"
import { SsoIdentityRepository } from "../../ports/SsoIdentityRepository.js"
import type { StorageError } from "../../ports/StorageError.js"
import { Transactor } from "../../ports/Transactor.js"
import { UserRepository } from "../../ports/UserRepository.js"
import { currentTimestamp } from "../shared/Now.js"
import * as AuthorSchedules from "../schedules/AuthorSchedules.js"
import * as MakerKeys from "../auth/MakerKeys.js"
import { hashToken, newToken, newUserAudit, userAudit } from "./PeopleSupport.js"
import { authorizeGlobal } from "../shared/Authorize.js"
import { SignInGuard } from "./SignInGuard.js"
import { requireProject } from "../shared/RequireProject.js"
import * as Writes from "../shared/Writes.js"

export interface InviteInput {
  readonly email: string
  readonly name?: string | undefined
  /** A global administrator (default false). */
  readonly admin?: boolean | undefined
  /** Memberships to start with (each project must exist, once each). */
  readonly projects?: ReadonlyArray<Membership> | undefined
}

export interface CreateUserInput extends InviteInput {
  readonly password: string
}

export interface UserPatch {
  readonly name?: string | undefined
  readonly admin?: boolean | undefined
  readonly disabled?: boolean | undefined
}

export const SETUP_LINK_INVALID = "Setup link is invalid or has expired"

/** The 409 of a change that would leave no enabled global admin (nobody could manage people or projects). */
export const LAST_ADMIN = "This change would leave no enabled global admin; make another person a global admin first."

const isEnabledAdmin = (user: User): boolean => user.admin && user.disabledAt === null

/**
 * People's accounts are the global administrators' (and a global server key's, and the operator's:
 * domain/auth/Permissions.ts); only `setup`, which spends a setup link, asks for no caller.
 */
export interface UsersShape {
  /** Every user, disabled ones included, in creation order. */
  readonly list: () => Effect.Effect<ReadonlyArray<User>, Forbidden | StorageError>
  /** One user; 404 for an unknown id. */
  readonly get: (id: string) => Effect.Effect<User, ResourceNotFound | Forbidden | StorageError>
  /**
   * Invites a person: the user (no password yet) with their memberships, and a one-time setup
   * token (72 h; only its hash is stored) for `<public URL>/ui/setup#token=<token>`.
   * 400 for a bad email or name, 404 for an unknown project, 409 when the email is taken
   * (compared case-insensitively).
   */
  readonly invite: (
    input: InviteInput
  ) => Effect.Effect<{ readonly user: User; readonly setupToken: string }, InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /** As `invite`, with the password set at once (no setup link); 400 for a password outside 12..1,024 characters. */
  readonly create: (
    input: CreateUserInput
  ) => Effect.Effect<User, InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | ServiceUnavailable | StorageError>
  /**
   * Changes a user's name, global admin flag or disabled state. Disabling ends the user's sessions,
   * voids their setup links, cancels their pending schedules and revokes the keys they made (in the
   * same transaction); demoting revokes the keys they made in projects they do not manage as members. 409 when the acting person (`CurrentActor`) removes their own
   * admin flag or disables themselves, and when the change would leave no enabled global admin
   * (decided inside the write: concurrent changes cannot both pass); 404 for an unknown id.
   */
  readonly update: (id: string, patch: UserPatch) => Effect.Effect<User, InvalidRequest | ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /**
   * A new setup link for the user: their password is removed, their sessions ended, earlier links
   * voided. 404 for an unknown id.
   */
  readonly resetPassword: (id: string) => Effect.Effect<{ readonly setupToken: string }, ResourceNotFound | Forbidden | StorageError>
  /**
   * Forgets the user's failed sign-ins, from every address: the sign-in limits
   * (domain/people/SignInLimit.ts) no longer hold them back. 404 for an unknown id.
   */
  readonly unlock: (id: string) => Effect.Effect<User, ResourceNotFound | Forbidden | StorageError>
  /**
   * Allows the user's next single sign-on with their email, within 72 h, to link their account to
   * that identity where the rules would refuse (linked before, or a global admin's:
   * domain/people/SsoLink.ts), replacing the identities linked before; spent by that link. Answers
   * the user and when the allowance expires; recorded as `user.sso_link_allowed`. 409 for an
   * account at localhost (never linked), 404 for an unknown id.
   */
  readonly allowSsoLink: (
    id: string
  ) => Effect.Effect<{ readonly user: User; readonly expiresAt: string }, ResourceNotFound | ResourceConflict | Forbidden | StorageError>
  /**
   * Spends a setup token and sets the password of its user. 400 "Setup link is invalid or has
   * expired" for an unknown, spent or expired token (or a disabled user), 400 for a password
   * outside 12..1,024 characters. Of two setups with one token at the same moment, one succeeds.
   * The token is looked up before the password is hashed, so a made-up one costs no hashing.
   * `client` (the client's address, when known) counts against its attempts (SignInGuard: 429
   * beyond them); 503 when too many passwords are being hashed at once.
   */
  readonly setup: (
    token: string,
    password: string,
    client?: string | undefined
  ) => Effect.Effect<User, InvalidRequest | RateLimited | ServiceUnavailable | StorageError>
}

export class Users extends Context.Tag("@flagport/services/Users")<Users, UsersShape>() {}

const invalid = (problems: ReadonlyArray<Problem>) =>
  problems.length === 0 ? Effect.void : Effect.fail(new InvalidRequest({ message: "The request is invalid.", details: problems }))

export const make = Effect.gen(function* () {
  const users = yield* UserRepository
  const tokens = yield* SetupTokenRepository
  const failures = yield* SignInFailureRepository
  const identities = yield* SsoIdentityRepository
  const sessions = yield* SessionRepository
  const cancelSchedulesOf = yield* AuthorSchedules.personCanceller
  const guard = yield* SignInGuard
  const revokeKeysOf = yield* MakerKeys.revoker
  const projects = yield* ProjectRepository
  const ids = yield* IdGenerator
  const crypto = yield* Crypto
  const tx = yield* Transactor
  const writes = yield* Writes.writer

  const stillEnabledAdmin = (userId: string) => Effect.map(users.get(userId), Option.exists(isEnabledAdmin))

  const require = (id: string) =>
    Effect.flatMap(users.get(id), (found) => (Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(userNotFound(id))))

  /** A setup token for the user, stored hashed inside the running write. */
  const issueToken = (userId: string, nowMillis: number) =>
    Effect.gen(function* () {
      const token = newToken(crypto)
      yield* tokens.insert({
        hash: hashToken(crypto, token),
        userId,
        createdAt: formatTimestamp(nowMillis),
        expiresAt: formatTimestamp(nowMillis + SETUP_TOKEN_LIFETIME_MS)
      })
      return token
    }).pipe(Effect.catchTag("DuplicateKey", Effect.die)) // 256 random bits do not collide

  /** The shared part of invite and create: a new user with memberships, then `extra` in the same write. */
  const addUser = <A>(input: InviteInput, passwordHash: string | null, extra: (user: User, nowMillis: number) => Effect.Effect<A, StorageError>) =>
    Effect.gen(function* () {
      const memberships = input.projects ?? []
      yield* invalid([...emailProblems(input.email), ...nameProblems(input.name), ...membershipListProblems(memberships.map((m) => m.projectId))])
      // Checked before the write, which then starts with its own statements (see ApiKeys.create);
      // the foreign key covers a project that goes away in between.
      for (const { projectId } of memberships) yield* requireProject(projects, projectId)
      const id = yield* ids.next
      const email = input.email.trim()
      return yield* writes.record(null, ({ now, millis }) =>
        Effect.gen(function* () {
          const user: User = {
            id,
            email,
            name: input.name ?? "",
            admin: input.admin ?? false,
            createdAt: now,
            lastSignInAt: null,
            disabledAt: null,
            sso: false
          }
          yield* users.insert(user)
          for (const m of memberships) yield* users.putMembership(id, m.projectId, m.role).pipe(Effect.catchTag("NotFound", Effect.die))
          if (passwordHash !== null) yield* users.setPasswordHash(id, passwordHash).pipe(Effect.catchTag("NotFound", Effect.die))
          const value = yield* extra(user, millis)
          return {
            value: { user, value },
            audit: newUserAudit(user, memberships)
          }
        })
      ).pipe(
        Effect.catchTag("DuplicateKey", () => Effect.fail(new ResourceConflict({ message: `A user with the email '${email}' already exists` })))
      )
    })

  const list = Effect.fn("Users.list")(function* () {
    yield* authorizeGlobal("Users.list")
    return yield* users.list()
  })

  const get = Effect.fn("Users.get")(function* (id: string) {
    yield* authorizeGlobal("Users.get")
    return yield* require(id)
  })

  const invite = Effect.fn("Users.invite")(function* (input: InviteInput) {
    yield* authorizeGlobal("Users.invite")
    const { user, value } = yield* addUser(input, null, (created, millis) => issueToken(created.id, millis))
    return { user, setupToken: value }
  })

  const create = Effect.fn("Users.create")(function* (input: CreateUserInput) {
    yield* authorizeGlobal("Users.create")
    yield* invalid(passwordProblems(input.password))
    const passwordHash = yield* guard.hashing(guard.hash(input.password))
    const { user } = yield* addUser(input, passwordHash, () => Effect.void)
    return user
  })

  const update = Effect.fn("Users.update")(function* (id: string, patch: UserPatch) {
    yield* authorizeGlobal("Users.update")
    yield* invalid(nameProblems(patch.name))
    const before = yield* require(id)
    const actor = yield* CurrentActor
    if (actor.type === "user" && actor.userId === id) {
      if (patch.admin === false && before.admin) {
        return yield* new ResourceConflict({ message: "You cannot remove your own admin flag; ask another global admin." })
      }
      if (patch.disabled === true) return yield* new ResourceConflict({ message: "You cannot disable yourself; ask another global admin." })
    }
    // A change that may take a global admin away holds the set of admins first and reads the user
    // again under it, so that of two admins demoting (or disabling) each other at once the second
    // sees the first and is refused when it would leave none.
    const mayTakeAdminAway = patch.admin === false || patch.disabled === true
    return yield* writes.record(null, ({ now }) =>
      Effect.gen(function* () {
        if (mayTakeAdminAway) {
          yield* users.lockAdmins()
          // Under the lock, the calling person again: one whose own admin flag a change committed
          // meanwhile took away (a ring of admins demoting each other) takes no one else's.
          const caller = yield* CurrentCaller
          if (caller._tag === "Person" && !(yield* stillEnabledAdmin(caller.userId))) {
            return yield* new Forbidden({ message: PeopleMessages.adminRequired })
          }
        }
        const current = mayTakeAdminAway ? yield* require(id) : before
        const disabledAt = patch.disabled === undefined ? current.disabledAt : patch.disabled ? (current.disabledAt ?? now) : null
        const after: User = { ...current, name: patch.name ?? current.name, admin: patch.admin ?? current.admin, disabledAt }
        yield* users.update(after).pipe(
          Effect.catchTag("NotFound", () => Effect.fail(userNotFound(id))),
          Effect.catchTag("DuplicateKey", Effect.die) // the email did not change
        )
        if (isEnabledAdmin(current) && !isEnabledAdmin(after) && (yield* users.countAdmins()) === 0) {
          return yield* new ResourceConflict({ message: LAST_ADMIN })
        }
        if (disabledAt !== null && current.disabledAt === null) {
          yield* sessions.deleteForUser(id)
          yield* tokens.deleteForUser(id)
          // Their pending schedules with them, by whoever disables them (schedule.cancelled entries).
          yield* cancelSchedulesOf(id)
          // And the keys they made, which would otherwise go on managing their projects.
          yield* revokeKeysOf(id, MakerKeys.MakerReasons.disabled)
        } else if (current.admin && !after.admin) {
          // The keys they made in projects they no longer manage.
          yield* revokeKeysOf(id, MakerKeys.MakerReasons.demoted)
        }
        const memberships = yield* users.membershipsOf(id)
        return { value: after, audit: userAudit("user.updated", memberships, current, after) }
      })
    )
  })

  const resetPassword = Effect.fn("Users.resetPassword")(function* (id: string) {
    yield* authorizeGlobal("Users.resetPassword")
    const user = yield* require(id)
    return yield* writes.record(null, ({ millis }) =>
      Effect.gen(function* () {
        yield* tokens.deleteForUser(id)
        yield* sessions.deleteForUser(id)
        yield* users.setPasswordHash(id, null).pipe(Effect.catchTag("NotFound", () => Effect.fail(userNotFound(id))))
        const setupToken = yield* issueToken(id, millis)
        const memberships = yield* users.membershipsOf(id)
        return { value: { setupToken }, audit: userAudit("user.password_reset", memberships, user, user) }
      })
    )
  })

  const unlock = Effect.fn("Users.unlock")(function* (id: string) {
    yield* authorizeGlobal("Users.unlock")
    const user = yield* require(id)
    return yield* writes.record(null, () =>
      Effect.gen(function* () {
        yield* failures.clear(normalizeEmail(user.email))
        const memberships = yield* users.membershipsOf(id)
        return { value: user, audit: userAudit("user.unlocked", memberships, user, user) }
      })
    )
  })

  const allowSsoLink = Effect.fn("Users.allowSsoLink")(function* (id: string) {
    yield* authorizeGlobal("Users.allowSsoLink")
    const user = yield* require(id)
    if (isLocalhostEmail(user.email)) return yield* new ResourceConflict({ message: LOCALHOST_NEVER_LINKED })
    return yield* writes.record(null, ({ millis, now }) =>
      Effect.gen(function* () {
        const expiresAt = formatTimestamp(millis + SSO_LINK_ALLOWANCE_MS)
        yield* identities.allowLink(id, now, expiresAt)
        const memberships = yield* users.membershipsOf(id)
        return { value: { user, expiresAt }, audit: userAudit("user.sso_link_allowed", memberships, user, user) }
      })
    )
  })

  const setup = Effect.fn("Users.setup")(function* (token: string, password: string, client?: string) {
    yield* guard.attempt(client)
    yield* invalid(passwordProblems(password))
    const refused = new InvalidRequest({ message: SETUP_LINK_INVALID, details: [] })
    // A made-up token is refused before any hashing: guessing tokens costs the server a read.
    if (Option.isNone(yield* tokens.find(hashToken(crypto, token), yield* currentTimestamp))) return yield* refused
    // Hashed before the transaction: it takes a while and holds no lock.
    const passwordHash = yield* guard.hashing(guard.hash(password))
    const now = yield* currentTimestamp
    const user = yield* tx.withTransaction(
      Effect.gen(function* () {
        const userId = yield* tokens.spend(hashToken(crypto, token), now)
        if (Option.isNone(userId)) return yield* refused
        const user = yield* users.get(userId.value)
        if (Option.isNone(user) || user.value.disabledAt !== null) return yield* refused
        yield* users.setPasswordHash(user.value.id, passwordHash).pipe(Effect.catchTag("NotFound", () => refused))
        return user.value
      })
    )
    yield* guard.succeeded(client)
    return user
  })

  return Users.of({ list, get, invite, create, update, resetPassword, unlock, allowSsoLink, setup })
})

export const layer = Layer.effect(Users, make)
