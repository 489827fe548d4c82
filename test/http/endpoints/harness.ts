/**
 * What every file of the endpoint suite shares: the server (started once per backend by
 * ../endpoints.ts), a request that records each answer for the OpenAPI check, and the error
 * check that records each body for the golden file.
 */
import { expect } from "@effect/vitest"
import { type Reply, request as send, type TestServer } from "../fixtures.js"

export type { Reply }

export interface Endpoints {
  /** The suite's server; its fields are read when a test runs (the server starts in a beforeAll). */
  readonly t: Pick<TestServer, "url" | "keys">
  /** `fixtures.request`, recording the method, path and status of the answer. */
  readonly request: (...args: Parameters<typeof send>) => Promise<Reply>
  /** A request with the global (admin) key unless `extra.key` names another. */
  readonly call: (method: string, path: string, body?: unknown, extra?: { key?: string; headers?: Record<string, string> }) => Promise<Reply>
  /** Checks status + envelope code, and records the body under `name` for the golden file. */
  readonly expectError: (name: string, reply: Reply, status: number, code: string) => { error: { code: string; message: string } }
}

export interface Recorded {
  readonly answered: ReadonlyArray<{ readonly method: string; readonly path: string; readonly status: number }>
  readonly goldenBodies: Readonly<Record<string, unknown>>
}

export const makeEndpoints = (server: () => TestServer): Endpoints & Recorded => {
  const goldenBodies: Record<string, unknown> = {}
  const answered: Array<{ readonly method: string; readonly path: string; readonly status: number }> = []
  const t = {
    get url() {
      return server().url
    },
    get keys() {
      return server().keys
    }
  }
  const request = async (...args: Parameters<typeof send>): Promise<Reply> => {
    const reply = await send(...args)
    answered.push({ method: args[1], path: args[2], status: reply.status })
    return reply
  }
  const call: Endpoints["call"] = (method, path, body, extra = {}) =>
    request(t.url, method, path, { key: t.keys.global, ...extra, ...(body === undefined ? {} : { body }) })
  const expectError: Endpoints["expectError"] = (name, reply, status, code) => {
    expect(reply.status, reply.text).toBe(status)
    expect(reply.headers.get("content-type")).toContain("application/json")
    const body = reply.body as { error: { code: string; message: string } }
    expect(body.error.code).toBe(code)
    expect(typeof body.error.message).toBe("string")
    // Generated ids vary from run to run; the golden file keeps their place, not their value.
    goldenBodies[name] = JSON.parse(JSON.stringify(body).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>"))
    return body
  }
  return { t, request, call, expectError, answered, goldenBodies }
}

/** A string flag with variations A, B and C. */
export const flag = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  name: `Flag ${key}`,
  type: "string",
  variations: [
    { key: "A", value: "a" },
    { key: "B", value: "b" },
    { key: "C", value: "c" }
  ],
  ...extra
})
