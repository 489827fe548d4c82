import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { Principal } from "../../src/domain/auth/ApiKey.js"
import * as Policy from "../../src/domain/auth/Policy.js"

const M = Policy.Messages

describe("Policy.parseAuthorization", () => {
  const cases: ReadonlyArray<[string, string | undefined, string | null]> = [
    ["the canonical form", "Bearer srv_abc", "srv_abc"],
    ["lower-case scheme", "bearer srv_abc", "srv_abc"],
    ["upper-case scheme", "BEARER cli_abc", "cli_abc"],
    ["mixed-case scheme", "bEaReR srv_x-y.z~+/=", "srv_x-y.z~+/="],
    ["a token that is not a key is still a well-formed header", "Bearer nope", "nope"],
    ["missing header", undefined, null],
    ["empty header", "", null],
    ["scheme only", "Bearer", null],
    ["scheme and space only", "Bearer ", null],
    ["another scheme", "Basic c3J2X2FiYw==", null],
    ["an unknown scheme of the same length (the built-in bearer accepts it)", "XXXXXX srv_abc", null],
    ["two spaces", "Bearer  srv_abc", null],
    ["a tab instead of the space", "Bearer\tsrv_abc", null],
    ["no space", "Bearersrv_abc", null],
    ["trailing text after the key", "Bearer srv_abc extra", null],
    ["trailing space", "Bearer srv_abc ", null],
    ["a non-ASCII key", "Bearer srv_é", null]
  ]
  it.each(cases)("%s", (_name, header, expected) => {
    const result = Policy.parseAuthorization(header)
    if (expected === null) {
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left._tag).toBe("Unauthenticated")
        expect(result.left.message).toBe(M.malformedHeader)
      }
    } else {
      expect(result).toEqual(Either.right(expected))
    }
  })
})

describe("Policy.classifyToken", () => {
  it.each([
    ["srv_abc", "server"],
    ["cli_abc", "client"],
    ["srv_", undefined],
    ["cli_", undefined],
    ["SRV_abc", undefined],
    ["key_abc", undefined],
    ["abc", undefined]
  ] as const)("%s -> %s", (token, kind) => {
    expect(Policy.classifyToken(token)).toBe(kind)
  })
})

describe("Policy.principalOf", () => {
  it("classifies global server, scoped server, scoped client and unscoped client keys", () => {
    expect(Policy.principalOf({ id: "k1", type: "server", projectId: null, environment: null })).toEqual({ _tag: "GlobalServer", keyId: "k1" })
    expect(Policy.principalOf({ id: "k2", type: "server", projectId: "p", environment: null })).toEqual({
      _tag: "ProjectServer",
      keyId: "k2",
      projectId: "p",
      environment: null
    })
    expect(Policy.principalOf({ id: "k3", type: "client", projectId: "p", environment: "production" })).toEqual({
      _tag: "Client",
      keyId: "k3",
      projectId: "p",
      environment: "production"
    })
    expect(Policy.principalOf({ id: "k4", type: "client", projectId: null, environment: null })).toEqual({
      _tag: "Client",
      keyId: "k4",
      projectId: null,
      environment: null
    })
  })
  it("an unknown key is the specification's 401 message", () => {
    const error = Policy.unknownKey()
    expect(error._tag).toBe("Unauthenticated")
    expect(error.message).toBe(M.invalidKey)
  })
})

const globalServer: Principal = { _tag: "GlobalServer", keyId: "g" }
const scopedServer: Principal = { _tag: "ProjectServer", keyId: "s", projectId: "p1", environment: null }
const client: Principal = { _tag: "Client", keyId: "c", projectId: "p1", environment: null }
const unscopedClient: Principal = { _tag: "Client", keyId: "u", projectId: null, environment: null }
const boundServer: Principal = { _tag: "ProjectServer", keyId: "bs", projectId: "p1", environment: "production" }
const boundClient: Principal = { _tag: "Client", keyId: "bc", projectId: "p1", environment: "production" }

type Outcome = { readonly ok: string | null } | { readonly tag: string; readonly message: string }
const outcome = <A>(result: Either.Either<A, { _tag: string; message: string }>): Outcome =>
  Either.isRight(result)
    ? { ok: result.right as string | null }
    : { tag: result.left._tag, message: result.left.message }

describe("Policy.authorizeManagement: the whole table", () => {
  const own: Policy.ManagementTarget = { _tag: "Project", projectId: "p1" }
  const other: Policy.ManagementTarget = { _tag: "Project", projectId: "p2" }
  const list: Policy.ManagementTarget = { _tag: "ListProjects" }
  const create: Policy.ManagementTarget = { _tag: "CreateProject" }
  const forbidden = (message: string) => ({ tag: "Forbidden", message })
  const table: ReadonlyArray<[string, Principal, Policy.ManagementTarget, Outcome]> = [
    ["global server key, any project", globalServer, other, { ok: null }],
    ["global server key, list projects", globalServer, list, { ok: null }],
    ["global server key, create project", globalServer, create, { ok: null }],
    ["scoped server key, its project", scopedServer, own, { ok: "p1" }],
    ["scoped server key, another project", scopedServer, other, forbidden(M.projectMismatch)],
    ["scoped server key, list projects (sees its own)", scopedServer, list, { ok: "p1" }],
    ["scoped server key, create project", scopedServer, create, forbidden(M.projectMismatch)],
    ["client key, its project", client, own, forbidden(M.serverKeyRequired)],
    ["client key, another project", client, other, forbidden(M.serverKeyRequired)],
    ["client key, list projects", client, list, forbidden(M.serverKeyRequired)],
    ["client key, create project", client, create, forbidden(M.serverKeyRequired)],
    ["unscoped client key, a project", unscopedClient, own, forbidden(M.serverKeyRequired)]
  ]
  it.each(table)("%s", (_name, principal, target, expected) => {
    expect(outcome(Policy.authorizeManagement(principal, target))).toEqual(expected)
  })
})

describe("Policy.authorizeEvaluation: the whole table", () => {
  const scope = (projectId: string, environment: string) => ({ ok: { projectId, environment } }) as unknown as Outcome
  const table: ReadonlyArray<[string, Principal, string | undefined, string | undefined, Outcome]> = [
    ["global server key with projectId", globalServer, "p2", "dev", scope("p2", "dev")],
    ["global server key without projectId", globalServer, undefined, "dev", { tag: "InvalidRequest", message: M.projectIdRequired }],
    ["global server key with an empty projectId", globalServer, "", "dev", { tag: "InvalidRequest", message: M.projectIdRequired }],
    ["global server key without environment", globalServer, "p2", undefined, { tag: "InvalidRequest", message: M.requestInvalid }],
    ["scoped server key without projectId", scopedServer, undefined, "dev", scope("p1", "dev")],
    ["scoped server key naming its project", scopedServer, "p1", "dev", scope("p1", "dev")],
    ["scoped server key naming another project", scopedServer, "p2", "dev", { tag: "Forbidden", message: M.projectMismatch }],
    ["scoped server key without environment", scopedServer, "p1", undefined, { tag: "InvalidRequest", message: M.requestInvalid }],
    ["client key without projectId", client, undefined, "dev", scope("p1", "dev")],
    ["client key naming its project", client, "p1", "dev", scope("p1", "dev")],
    ["client key naming another project", client, "p2", "dev", { tag: "Forbidden", message: M.projectMismatch }],
    ["client key without environment", client, undefined, undefined, { tag: "InvalidRequest", message: M.requestInvalid }],
    ["unscoped client key", unscopedClient, undefined, "dev", { tag: "Forbidden", message: M.clientKeyUnscoped }],
    ["unscoped client key naming a project", unscopedClient, "p1", "dev", { tag: "Forbidden", message: M.clientKeyUnscoped }],
    ["bound server key without environment (supplies its own)", boundServer, undefined, undefined, scope("p1", "production")],
    ["bound server key naming its environment", boundServer, "p1", "production", scope("p1", "production")],
    ["bound server key naming another environment", boundServer, undefined, "dev", { tag: "Forbidden", message: M.environmentMismatch }],
    ["bound client key without environment (supplies its own)", boundClient, undefined, undefined, scope("p1", "production")],
    ["bound client key naming another environment", boundClient, "p1", "dev", { tag: "Forbidden", message: M.environmentMismatch }],
    ["bound client key naming another project", boundClient, "p2", "production", { tag: "Forbidden", message: M.projectMismatch }]
  ]
  it.each(table)("%s", (_name, principal, project, environment, expected) => {
    expect(outcome(Policy.authorizeEvaluation(principal, project, environment))).toEqual(expected)
  })
  it("the 400 for a global key without projectId names the field", () => {
    const result = Policy.authorizeEvaluation(globalServer, undefined, "dev")
    expect(Either.isLeft(result) && result.left._tag === "InvalidRequest" ? result.left.details : []).toEqual([
      { path: "projectId", message: "is required with a global server key" }
    ])
  })
  it("the 400 for an unbound key without environment is the missing field's", () => {
    const result = Policy.authorizeEvaluation(client, undefined, undefined)
    expect(Either.isLeft(result) && result.left._tag === "InvalidRequest" ? result.left.details : []).toEqual([
      { path: "environment", message: "is required (or use an API key bound to an environment)" }
    ])
  })
})

describe("Policy: writes of what every environment serves, and variations (one rule for PATCH and apply)", () => {
  const variations = [{ key: "a", value: "A" }, { key: "b", value: { n: 1, m: [2] } }]
  const refused = { tag: "Forbidden", message: M.boundKeyWritesEveryEnvironment("production") }
  const decided = (result: Either.Either<void, { _tag: string; message: string }>) => (Either.isRight(result) ? "allowed" : outcome(result))
  it.each<[string, Principal, unknown, Outcome | "allowed"]>([
    ["an unbound key, changed variations", scopedServer, [{ key: "a", value: "Z" }], "allowed"],
    ["a bound key, no variations named", boundServer, undefined, "allowed"],
    ["a bound key, the same variations", boundServer, variations, "allowed"],
    ["a bound key, the same variations, keys in another order", boundServer, [{ value: "A", key: "a" }, { key: "b", value: { m: [2], n: 1 } }], "allowed"],
    ["a bound key, a changed value", boundServer, [{ key: "a", value: "A" }, { key: "b", value: { n: 2, m: [2] } }], refused],
    ["a bound key, a variation added", boundServer, [...variations, { key: "c", value: "C" }], refused],
    ["a bound key, the same in another order", boundServer, [...variations].reverse(), refused]
  ])("%s", (_name, principal, after, expected) => {
    expect(decided(Policy.authorizeVariationsWrite(principal, variations, after))).toEqual(expected)
  })

  it("every environment: people's roles and unbound keys decide elsewhere; a bound key is refused with its binding named", () => {
    expect(Either.isRight(Policy.authorizeAllEnvironmentsWrite(globalServer))).toBe(true)
    expect(Either.isRight(Policy.authorizeAllEnvironmentsWrite(scopedServer))).toBe(true)
    expect(outcome(Policy.authorizeAllEnvironmentsWrite(boundServer))).toEqual(refused)
    expect(M.boundKeyWritesEveryEnvironment("production")).toBe(
      "This API key is bound to environment 'production': it cannot change what every environment serves (flag creation and deletion, variations, segments, environments)."
    )
  })
})
