import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { CurrentActor } from "../../src/domain/audit/Actor.js"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { AuditLog } from "../../src/ports/AuditLog.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { MAKER_MAY_NOT_MANAGE, MakerReasons } from "../../src/services/auth/MakerKeys.js"
import { Forbidden } from "../../src/domain/Errors.js"
import { Members } from "../../src/services/people/Members.js"
import { Users } from "../../src/services/people/Users.js"
import { type Contract, freshProjectId, givenProject } from "./Backend.js"

const asPerson = (userId: string) => Effect.provideService(CurrentActor, { type: "user", userId })
const asKey = (keyId: string) => Effect.provideService(CurrentActor, { type: "key", keyId })

const givenPerson = (admin = false) =>
  Effect.map(Effect.flatMap(Users, (users) => users.invite({ email: `maker.${freshProjectId()}@example.com`, admin })), ({ user }) => user)

/** Whether each key is revoked now, in order. */
const revokedNow = (...ids: ReadonlyArray<string>) =>
  Effect.flatMap(ApiKeyRepository, (repo) => Effect.forEach(ids, (id) => Effect.map(repo.get(id), (key) => Option.getOrThrow(key).revokedAt !== null)))

/** The `reason` of the key's `key.revoked` entries in its project's log. */
const revocationReasons = (projectId: string, keyId: string) =>
  Effect.flatMap(AuditLog, (log) => log.list(projectId, { resourceType: "key", resourceKey: keyId }, 10)).pipe(
    Effect.map((rows) => rows.filter((row) => row.entry.action === "key.revoked").map((row) => row.entry.reason))
  )

/**
 * A key's maker (`createdBy`) and the keys that go with their maker's rights: disabling a person,
 * demoting a global admin, or taking `manage` in a project away revokes the keys they made where
 * they no longer manage, each revocation in the project's log with its reason.
 */
export const makerKeysContract: Contract = (it) => {
  it.effect("a key records its maker: the person, a key's maker through that key, nobody for the operator", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const repo = yield* ApiKeyRepository
      const projectId = yield* givenProject()
      const person = yield* givenPerson()
      yield* (yield* Members).put(projectId, person.id, "admin")
      const byPerson = yield* asPerson(person.id)(keys.create({ type: "server", projectId, name: "theirs" }))
      const byTheirKey = yield* asKey(byPerson.apiKey.id)(keys.create({ type: "client", projectId }))
      const byOperator = yield* keys.create({ type: "server", projectId })
      const byOperatorsKey = yield* asKey(byOperator.apiKey.id)(keys.create({ type: "client", projectId }))
      expect([byPerson, byTheirKey, byOperator, byOperatorsKey].map((made) => made.apiKey.createdBy)).toEqual([person.id, person.id, null, null])
      expect(Option.map(yield* repo.get(byTheirKey.apiKey.id), (key) => key.createdBy)).toEqual(Option.some(person.id))
      // The live ones by maker, in creation order.
      yield* keys.revoke(byTheirKey.apiKey.id)
      expect((yield* repo.liveMadeBy(person.id)).map((key) => key.id)).toEqual([byPerson.apiKey.id])
      expect(yield* repo.liveMadeBy("nobody")).toEqual([])
    }))

  it.effect("disabling a person revokes every key they made, in every project, each with its reason; other keys stay", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const [p1, p2] = [yield* givenProject(), yield* givenProject()]
      const person = yield* givenPerson(true)
      const mine = yield* asPerson(person.id)(Effect.all([keys.create({ type: "server", projectId: p1 }), keys.create({ type: "server", projectId: p2 })]))
      const chained = yield* asKey(mine[0].apiKey.id)(keys.create({ type: "server", projectId: p1 }))
      const others = yield* keys.create({ type: "server", projectId: p1 })
      yield* givenPerson(true) // not the last global admin
      yield* (yield* Users).update(person.id, { disabled: true })
      expect(yield* revokedNow(mine[0].apiKey.id, mine[1].apiKey.id, chained.apiKey.id, others.apiKey.id)).toEqual([true, true, true, false])
      expect(yield* revocationReasons(p1, mine[0].apiKey.id)).toEqual([MakerReasons.disabled])
      expect(yield* revocationReasons(p2, mine[1].apiKey.id)).toEqual([MakerReasons.disabled])
      expect(yield* revocationReasons(p1, chained.apiKey.id)).toEqual([MakerReasons.disabled])
      expect(yield* keys.authenticate(chained.secret)).toEqual(Option.none())
      // Enabled again, they do not get their keys back.
      yield* (yield* Users).update(person.id, { disabled: false })
      expect(yield* revokedNow(mine[0].apiKey.id)).toEqual([true])
    }))

  it.effect("a key made while its maker is disabled or demoted (the maker read before): the write sees them, and the key is refused, none made", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const repo = yield* ApiKeyRepository
      const members = yield* Members
      const users = yield* Users
      const projectId = yield* givenProject()
      const person = yield* givenPerson()
      yield* members.put(projectId, person.id, "admin")
      const theirs = yield* asPerson(person.id)(keys.create({ type: "server", projectId }))
      const before = (yield* repo.list()).length
      // A request through their key, authenticated before they lose the project: its write comes after.
      const refused = <A, E>(effect: Effect.Effect<A, E>) => Effect.flip(effect)
      yield* members.put(projectId, person.id, "editor")
      expect(yield* refused(asKey(theirs.apiKey.id)(keys.create({ type: "client", projectId })))).toEqual(new Forbidden({ message: MAKER_MAY_NOT_MANAGE }))
      // And as the person themselves, disabled meanwhile.
      yield* members.put(projectId, person.id, "admin")
      yield* givenPerson(true) // not the last global admin
      yield* users.update(person.id, { disabled: true })
      expect(yield* refused(asPerson(person.id)(keys.create({ type: "client", projectId })))).toEqual(new Forbidden({ message: MAKER_MAY_NOT_MANAGE }))
      expect((yield* repo.list()).length).toBe(before)
      expect((yield* repo.liveMadeBy(person.id)).length).toBe(0)
    }))

  it.effect("losing manage in a project revokes the keys they made there, and only there; a global admin keeps theirs until demoted", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const members = yield* Members
      const users = yield* Users
      const [p1, p2, p3] = [yield* givenProject(), yield* givenProject(), yield* givenProject()]
      const person = yield* givenPerson()
      yield* members.put(p1, person.id, "admin")
      yield* members.put(p2, person.id, "admin")
      const make = (projectId: string) => Effect.map(asPerson(person.id)(keys.create({ type: "server", projectId })), (made) => made.apiKey.id)
      const [k1, k2] = [yield* make(p1), yield* make(p2)]
      // Made editor in p1: their p1 key goes, their p2 key stays; an editor made viewer changes nothing more.
      yield* members.put(p1, person.id, "editor")
      expect(yield* revokedNow(k1, k2)).toEqual([true, false])
      expect(yield* revocationReasons(p1, k1)).toEqual([MakerReasons.roleChanged])
      // Removed from p2: that key goes too.
      yield* members.remove(p2, person.id)
      expect(yield* revokedNow(k2)).toEqual([true])
      expect(yield* revocationReasons(p2, k2)).toEqual([MakerReasons.removed])

      // A global admin manages every project: a role change or removal takes nothing away.
      const admin = yield* givenPerson(true)
      yield* members.put(p1, admin.id, "admin")
      yield* members.put(p3, admin.id, "admin")
      const byAdmin = (projectId: string) => Effect.map(asPerson(admin.id)(keys.create({ type: "server", projectId })), (made) => made.apiKey.id)
      const [a1, a2, a3] = [yield* byAdmin(p1), yield* byAdmin(p2), yield* byAdmin(p3)]
      yield* members.put(p1, admin.id, "viewer")
      yield* members.remove(p3, admin.id)
      expect(yield* revokedNow(a1, a2, a3)).toEqual([false, false, false])
      // Demoted, they keep only the keys of projects they manage as a member: p3's, where they are an admin again.
      yield* members.put(p3, admin.id, "admin")
      yield* givenPerson(true) // not the last global admin
      yield* users.update(admin.id, { admin: false })
      expect(yield* revokedNow(a1, a2, a3)).toEqual([true, true, false])
      expect(yield* revocationReasons(p2, a2)).toEqual([MakerReasons.demoted])
    }))
}
