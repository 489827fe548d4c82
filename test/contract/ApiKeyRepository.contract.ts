import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { ApiKeyRepository } from "../../src/ports/ApiKeyRepository.js"
import { ApiKeys, hashSecret } from "../../src/services/auth/ApiKeys.js"
import { type Contract, freshProjectId, givenProject, RawDump } from "./Backend.js"
import { nodeCrypto } from "../../adapters/crypto/NodeCrypto.js"

/** API keys: formats, scopes, hash-only storage, authentication, revocation. */
export const apiKeyContract: Contract = (it) => {
  it.effect("creates global and scoped server keys and client keys with the contract's prefixes", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const projectId = yield* givenProject()
      const global = yield* keys.create({ type: "server", name: "ops" })
      const scoped = yield* keys.create({ type: "server", projectId })
      const client = yield* keys.create({ type: "client", projectId })
      expect(global.secret).toMatch(/^srv_[A-Za-z0-9_-]{43}$/)
      expect(client.secret).toMatch(/^cli_[A-Za-z0-9_-]{43}$/)
      expect(global.apiKey).toMatchObject({ type: "server", projectId: null, name: "ops", lastUsedAt: null, revokedAt: null })
      expect(global.apiKey.prefix).toBe(global.secret.slice(0, 8))
      expect(scoped.apiKey.projectId).toBe(projectId)
      expect(client.apiKey).toMatchObject({ type: "client", projectId })
      const listed = yield* keys.list()
      for (const made of [global, scoped, client]) expect(listed).toContainEqual(made.apiKey)
    }))

  it.effect("touch records the use of a live key and says so; a revoked or unknown key is left as it is (false)", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const repo = yield* ApiKeyRepository
      const live = yield* keys.create({ type: "server" })
      const revoked = yield* keys.create({ type: "server" })
      yield* keys.revoke(revoked.apiKey.id)
      const at = "2026-11-27T00:00:00.000Z"
      expect(yield* repo.touch(live.apiKey.id, at)).toBe(true)
      expect(yield* repo.touch(revoked.apiKey.id, at)).toBe(false)
      expect(yield* repo.touch("no-such-key", at)).toBe(false)
      expect(Option.map(yield* repo.get(live.apiKey.id), (k) => k.lastUsedAt)).toEqual(Option.some(at))
      expect(Option.map(yield* repo.get(revoked.apiKey.id), (k) => k.lastUsedAt)).toEqual(Option.some(null))
    }))

  it.effect("a client key needs a project (400); an unknown project is a 404", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      expect((yield* Effect.flip(keys.create({ type: "client" })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(keys.create({ type: "client", projectId: null })))._tag).toBe("InvalidRequest")
      expect((yield* Effect.flip(keys.create({ type: "server", projectId: freshProjectId() })))._tag).toBe(
        "ResourceNotFound"
      )
    }))

  it.effect("keys are never stored in plain text: the raw tables hold only the SHA-256 hash", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const repo = yield* ApiKeyRepository
      const projectId = yield* givenProject()
      const made = yield* keys.create({ type: "client", projectId, name: "web" })
      const raw = yield* (yield* RawDump)
      // Plain booleans: a failure must not print the whole database.
      expect(raw.includes(made.secret)).toBe(false)
      expect(raw.includes(made.secret.slice(8))).toBe(false)
      expect(raw.includes(hashSecret(nodeCrypto, made.secret))).toBe(true)
      expect(hashSecret(nodeCrypto, made.secret)).toMatch(/^[0-9a-f]{64}$/)
      expect(yield* repo.findByHash(hashSecret(nodeCrypto, made.secret))).toEqual(Option.some(made.apiKey))
    }))

  it.effect("authenticate finds live keys by secret, records the use, refuses unknown and revoked keys", () =>
    Effect.gen(function* () {
      const keys = yield* ApiKeys
      const repo = yield* ApiKeyRepository
      const made = yield* keys.create({ type: "server" })
      const found = yield* keys.authenticate(made.secret)
      expect(Option.map(found, (k) => k.id)).toEqual(Option.some(made.apiKey.id))
      const used = Option.getOrThrow(yield* repo.get(made.apiKey.id))
      expect(used.lastUsedAt).not.toBeNull()
      expect(yield* keys.authenticate(made.secret + "x")).toEqual(Option.none())
      expect(yield* keys.authenticate("")).toEqual(Option.none())
      const revoked = yield* keys.revoke(made.apiKey.id)
      expect(revoked.revokedAt).not.toBeNull()
      expect(yield* keys.authenticate(made.secret)).toEqual(Option.none())
      // Revoking twice keeps the first time.
      expect((yield* keys.revoke(made.apiKey.id)).revokedAt).toBe(revoked.revokedAt)
      expect((yield* Effect.flip(keys.revoke("no-such-key")))._tag).toBe("ResourceNotFound")
    }))
}
