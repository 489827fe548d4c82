/**
 * The authorization matrix through the use cases directly, with no HTTP: every endpoint a use case
 * decides x every caller that authenticates (the keys as their `Principal`, the people as a
 * session finds them), each endpoint's use case called as that caller exactly as its handler calls
 * it. The expectations are the HTTP runs' own (authorization/Matrix.ts, `expectedFor`): the CLI and
 * an Effect host get exactly the answers the HTTP API gives, refusals word for word.
 *
 * Left out, as they are no caller of a use case: the credentials that do not authenticate (no key,
 * a malformed header, an unknown key, a cookie naming no session, a disabled person's: 401 before
 * any use case), and the evaluation, service and `/v1/me` routes (no management use case decides them).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import * as StorageLayer from "../../adapters/app/Composition.js"
import * as Errors from "../../adapters/http/shared/Errors.js"
import { actingAs, type Caller, personOf } from "../../src/domain/auth/Caller.js"
import { principalOf } from "../../src/domain/auth/Policy.js"
import { ApiKeys } from "../../src/services/auth/ApiKeys.js"
import { Sessions } from "../../src/services/people/Sessions.js"
import { type Keys, startServer, type TestServer } from "./fixtures.js"
import { type People, seedPeople } from "./people.js"
import { create, type Expected, flagBody } from "./authorization/Endpoint.js"
import { type Credential, ENDPOINTS, expectedFor } from "./authorization/Matrix.js"

type Authenticated = Exclude<Credential, "none" | "malformed" | "unknown" | "noSession" | "disabled">
type KeyCredential = Exclude<Authenticated, "viewer" | "editor" | "projectAdmin" | "globalAdmin" | "otherAdmin">

const KEYS: { readonly [C in KeyCredential]: (keys: Keys) => string } = {
  client: (keys) => keys.client,
  scopedOwn: (keys) => keys.scoped,
  scopedOther: (keys) => keys.otherScoped,
  global: (keys) => keys.global,
  boundClient: (keys) => keys.boundClient,
  boundClientOther: (keys) => keys.boundClientOther,
  boundServerOther: (keys) => keys.boundServerOther
}
const PEOPLE = ["viewer", "editor", "projectAdmin", "globalAdmin", "otherAdmin"] as const
const CALLERS: ReadonlyArray<Authenticated> = [...(Object.keys(KEYS) as Array<KeyCredential>), ...PEOPLE]

/** The endpoints a use case decides: every management route, the project list, projects and users. */
const DECIDED = ENDPOINTS.filter((endpoint) => endpoint.kind === "management" || endpoint.kind === "global" || endpoint.kind === "projects-list")

/** A use case's answer as the API would word it: success, or the failure's status and envelope. */
type Answer = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string }

const answerOf = (result: Either.Either<unknown, unknown>): Answer => {
  if (Either.isRight(result)) return { ok: true }
  const failure = result.left
  if (!Errors.isDomainError(failure)) throw new Error(`not a domain error: ${String(failure)}`)
  const envelope = Errors.fromDomain(failure)
  const status = envelope instanceof Errors.SignInLimited ? 429 : Errors.statusOf(envelope)
  return { ok: false, status, code: envelope.error.code, message: envelope.error.message }
}

/** What the matrix expects, in the same words: a 2xx is a success, anything else the failure. */
const expectedAnswer = (expected: Expected): Answer | { readonly ok: false; readonly status: number } =>
  typeof expected === "number"
    ? expected < 300 ? { ok: true } : { ok: false, status: expected }
    : { ok: false, status: expected.status, code: expected.code, message: expected.message }

describe("authorization matrix through the use cases (memory)", () => {
  // The server makes each row's fresh resources, as in the HTTP runs; the calls run on `services`,
  // the serving process's use cases over the server's very storage.
  let t: TestServer
  let services: ManagedRuntime.ManagedRuntime<StorageLayer.Services, unknown>
  const callers = new Map<Authenticated, Caller>()

  beforeAll(async () => {
    // A webhook of p1 per case, more than the 20 a project may have by default.
    process.env.FLAGPORT_WEBHOOKS_PER_PROJECT = "1000"
    try {
      t = await startServer(StorageLayer.memoryStorage)
      services = ManagedRuntime.make(StorageLayer.servicesFrom(Layer.succeedContext(await t.run(Effect.context<StorageLayer.Storage>()))))
      await services.runPromise(Effect.void)
    } finally {
      delete process.env.FLAGPORT_WEBHOOKS_PER_PROJECT
    }
    await create(t, "/v1/projects/p1/flags", flagBody("matrix-flag"))
    const people: People = await t.run(seedPeople)
    // Each caller as the HTTP adapter authenticates it: a key's record, a session's person.
    for (const [credential, secretOf] of Object.entries(KEYS) as Array<[KeyCredential, (keys: Keys) => string]>) {
      const key = await t.run(Effect.flatMap(ApiKeys, (keys) => keys.authenticate(secretOf(t.keys))))
      callers.set(credential, principalOf(Option.getOrThrow(key)))
    }
    for (const credential of PEOPLE) {
      const token = people[credential].cookie.replace(/^flagport_session=/, "")
      const person = await t.run(Effect.flatMap(Sessions, (sessions) => sessions.authenticate(token)))
      callers.set(credential, personOf(Option.getOrThrow(person)))
    }
  })
  afterAll(async () => {
    await services?.dispose()
    await t?.close()
  })

  let counter = 0
  const rows = DECIDED.flatMap((endpoint) => CALLERS.map((credential) => [endpoint.name, credential, endpoint] as const))
  it.each(rows)("%s as %s", async (name, credential, endpoint) => {
    const { call } = await endpoint.prepare(t, ++counter)
    // A route added to the matrix without its call would be held to HTTP only.
    if (call === undefined) throw new Error(`${name} has no use case call`)
    const result = await services.runPromise(actingAs(callers.get(credential)!)(call).pipe(Effect.either))
    const answer = answerOf(result)
    const expected = expectedAnswer(expectedFor(endpoint, credential))
    expect(expected.ok || "code" in expected ? answer : { ok: answer.ok, ...(answer.ok ? {} : { status: answer.status }) }).toEqual(expected)
  })
})
