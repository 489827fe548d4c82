/**
 * The provider when the server refuses, through the real `@openfeature/server-sdk` against a real
 * Flagport: a wrong environment fails `initialize` at once with INVALID_CONTEXT, a wrong key with
 * GENERAL, each carrying the server's message (OpenFeature's PROVIDER_ERROR of a failed
 * initialisation carries the message only: the code is on the error `setProviderAndWait` rejects
 * with); a client passed in that serves a bootstrap fails it the same way, told once, and goes on
 * serving the bootstrap; a key revoked while the provider runs is a PROVIDER_ERROR with
 * `errorCode` GENERAL while the last configuration keeps serving.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "@effect/vitest"
import { ErrorCode, type EventDetails, OpenFeature, ProviderEvents, ProviderStatus } from "@openfeature/server-sdk"
import { type ConfigSnapshot, createClient, FlagportServerError } from "../../adapters/client/index.js"
import { FlagportProvider } from "../../adapters/openfeature/index.js"
import { type Flagport, startFlagport } from "../client/RealServer.js"

/** Far longer than any refusal may take to end the start. */
const START_TIMEOUT_MS = 30_000

let server: Flagport
let domainCount = 0
const newDomain = () => `flagport-refusals-${++domainCount}`
const onOff = [{ key: "on", value: true }, { key: "off", value: false }]

beforeAll(async () => {
  server = await startFlagport()
  await server.createFlag("kept", "boolean", onOff)
  await server.target("kept", { enabled: true, defaultVariationKey: "on", offVariationKey: "off", rules: [] })
}, 60_000)

afterAll(() => server.close())
afterEach(() => OpenFeature.close())

/** Sets the provider in a new domain whose PROVIDER_ERROR handler was added first; the rejection and how long it took. */
const failedStart = async (provider: FlagportProvider) => {
  const domain = newDomain()
  const client = OpenFeature.getClient(domain)
  const errors: Array<EventDetails | undefined> = []
  client.addHandler(ProviderEvents.Error, (details) => void errors.push(details))
  const started = Date.now()
  const failure = await OpenFeature.setProviderAndWait(domain, provider).then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string; cause?: unknown }
  )
  if (failure === undefined) throw new Error("setProviderAndWait resolved")
  return { client, errors, failure, tookMs: Date.now() - started }
}

describe("FlagportProvider when the server refuses", () => {
  it("a wrong environment: initialize fails at once with INVALID_CONTEXT and the server's message; evaluations say why", async () => {
    const { client, errors, failure, tookMs } = await failedStart(
      new FlagportProvider({ url: server.url, key: server.serverKey, environment: "prod", startTimeoutMs: START_TIMEOUT_MS })
    )
    expect(tookMs).toBeLessThan(START_TIMEOUT_MS / 3)
    expect(failure.code).toBe(ErrorCode.INVALID_CONTEXT)
    expect(failure.message).toBe("flagport: the server refused the request: 404 not_found: Environment 'prod' not found in project 'p1'")
    expect(failure.cause).toBeInstanceOf(FlagportServerError)
    await vi.waitFor(() => expect(errors).toHaveLength(1))
    expect(errors[0]).toMatchObject({ message: failure.message })
    expect(client.providerStatus).toBe(ProviderStatus.ERROR)
    expect(await client.getBooleanDetails("kept", false, { targetingKey: "u" })).toMatchObject({
      value: false,
      reason: "ERROR",
      errorCode: ErrorCode.PROVIDER_NOT_READY,
      errorMessage: `the provider did not start: ${failure.message}`
    })
  })

  it("a wrong key: initialize fails at once with GENERAL and the server's 401", async () => {
    const { client, errors, failure, tookMs } = await failedStart(
      new FlagportProvider({ url: server.url, key: "srv_not-a-key", environment: "production", startTimeoutMs: START_TIMEOUT_MS })
    )
    expect(tookMs).toBeLessThan(START_TIMEOUT_MS / 3)
    expect(failure).toMatchObject({ code: ErrorCode.GENERAL, message: "flagport: the server refused the request: 401 unauthorized: Invalid API key." })
    await vi.waitFor(() => expect(errors).toHaveLength(1))
    expect(client.providerStatus).toBe(ProviderStatus.ERROR)
  })

  it("a client passed in that serves a bootstrap: initialize fails with the refusal, told once, and the bootstrap keeps serving", async () => {
    const bootstrap = {
      environment: "production",
      flags: [{ key: "boot", type: "boolean", enabled: true, variations: onOff, defaultVariationKey: "on", offVariationKey: "off", rules: [] }],
      segments: []
    } as unknown as ConfigSnapshot
    const flags = await createClient({ url: server.url, key: server.serverKey, environment: "prod", bootstrap })
    try {
      const { client, errors, failure } = await failedStart(new FlagportProvider(flags))
      expect(failure).toMatchObject({ code: ErrorCode.INVALID_CONTEXT, message: flags.refusal!.message })
      await vi.waitFor(() => expect(errors).toHaveLength(1))
      // The client's replay of its standing refusal to the provider's new listener is not a second ERROR.
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(errors).toHaveLength(1)
      expect(client.providerStatus).toBe(ProviderStatus.ERROR)
      expect(await client.getBooleanDetails("boot", false, { targetingKey: "u" })).toMatchObject({ value: true, reason: "STATIC" })
    } finally {
      await OpenFeature.close()
      await flags.close()
    }
  })

  it("a key revoked while the provider runs: PROVIDER_ERROR with errorCode GENERAL and the server's message, told once; the last configuration keeps serving", async () => {
    const made = await server.createKey("server")
    const domain = newDomain()
    await OpenFeature.setProviderAndWait(
      domain,
      new FlagportProvider({ url: server.url, key: made.key, environment: "production", pollIntervalMs: 200, backoff: { initialMs: 100, maxMs: 200 } })
    )
    const client = OpenFeature.getClient(domain)
    const errors: Array<EventDetails | undefined> = []
    client.addHandler(ProviderEvents.Error, (details) => void errors.push(details))
    await new Promise((resolve) => setTimeout(resolve, 300)) // the stream is connected

    await server.revokeKey(made.id)
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 10_000 })
    expect(errors[0]).toMatchObject({ errorCode: ErrorCode.GENERAL, message: expect.stringMatching(/^the server refused the request: 401 unauthorized: Invalid API key\.; /) })
    expect(client.providerStatus).toBe(ProviderStatus.ERROR)
    expect(await client.getBooleanDetails("kept", false, { targetingKey: "u" })).toMatchObject({ value: true, reason: "STATIC" })
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(errors).toHaveLength(1)
  })
})
