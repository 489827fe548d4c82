/**
 * Every 400 says what is wrong in words, at its path (issue 25, item 7): Effect Schema's notation
 * (`Expected { readonly key: minLength(1); ... }, actual "u"`, a `[]` body answered with the whole
 * request schema) must not reach a client. Through a real server, every operation of the document
 * that takes a body gets wrong-typed bodies; each answer is a 400 whose details are short sentences.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { request, startServer, type TestServer } from "./fixtures.js"

/** What Effect Schema's own notation looks like; none of it may appear in a message. */
const NOTATION = /Expected |, actual |readonly |ReadonlyArray|minLength\(|maxLength\(|\| undefined|[{}<>]/

let t: TestServer
let spec: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>; components: { schemas: Record<string, Schema> } }
interface Schema {
  readonly $ref?: string
  readonly properties?: Record<string, Schema>
  readonly anyOf?: ReadonlyArray<Schema>
  readonly oneOf?: ReadonlyArray<Schema>
}
beforeAll(async () => {
  t = await startServer()
  spec = (await request(t.url, "GET", "/openapi.json")).body as typeof spec
})
afterAll(async () => {
  await t?.close()
})

const resolve = (schema: Schema): Schema => (schema.$ref === undefined ? schema : resolve(spec.components.schemas[schema.$ref.split("/").pop()!]!))

/** The body's declared fields (the first branch of a union). */
const fieldsOf = (schema: Schema): Array<string> => {
  const s = resolve(schema)
  if (s.properties !== undefined) return Object.keys(s.properties)
  const first = s.anyOf?.[0] ?? s.oneOf?.[0]
  return first === undefined ? [] : fieldsOf(first)
}

/** Every operation with a JSON body, OFREP's aside (they answer in OFREP's own shapes). */
const operations = () =>
  Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.requestBody?.content["application/json"] !== undefined && !template.startsWith("/ofrep/"))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: template.replace("{projectId}", "p1").replace(/\{[^}]+\}/g, "x"),
        fields: fieldsOf(operation.requestBody!.content["application/json"]!.schema)
      }))
  )

describe("wrong-typed bodies on every operation", () => {
  it("are 400s whose every detail is in words", async () => {
    const ops = operations()
    expect(ops.length).toBeGreaterThanOrEqual(15)
    const checked: Array<string> = []
    for (const { method, path, fields } of ops) {
      // A nested array is of the wrong type for every field but a JSON value; `[]`, a string and
      // a number are not the object any body is.
      const wrongFields = Object.fromEntries(fields.map((f) => [f, [[]]]))
      for (const body of ["[]", '"u"', "1", JSON.stringify({ ...wrongFields, notAField: 1 })]) {
        const reply = await request(t.url, method, path, { key: t.keys.global, body, headers: { "content-type": "application/json" } })
        const name = `${method} ${path} ${body.slice(0, 40)}`
        expect(reply.status, `${name}: ${reply.text}`).toBe(400)
        const details = (reply.body as { error: { details?: Array<{ path: string; message: string }> } }).error.details ?? []
        expect(details.length, name).toBeGreaterThan(0)
        for (const detail of details) {
          expect(detail.message, `${name} at ${detail.path}`).not.toMatch(NOTATION)
          // Short, though an enumeration names every choice (the webhook events, sixteen of them since
          // release plans, are the longest at about 390 characters).
          expect(detail.message.length, `${name} at ${detail.path}`).toBeLessThan(450)
        }
        checked.push(name)
      }
    }
    expect(checked.length).toBe(ops.length * 4)
  })

  it.each([
    ["a string context", { environment: "production", context: "u" }, [{ path: "context", message: 'must be an object, not the string "u"' }]],
    ["a [] body", [], [{ path: "", message: "must be an object, not an array" }]],
    [
      "wrong types inside the context",
      { environment: "production", context: { key: 1, attributes: [] } },
      [
        { path: "context.key", message: "must be a string, not the number 1" },
        { path: "context.attributes", message: "must be an object, not an array" }
      ]
    ],
    ["an unknown field", { environment: "production", context: { key: "u" }, country: "DE" }, [{ path: "country", message: "is not a field here (the fields are environment, context, projectId)" }]],
    ["a missing context", { environment: "production" }, [{ path: "context", message: "is required" }]]
  ])("POST /v1/evaluate: %s", async (_, body, details) => {
    const reply = await request(t.url, "POST", "/v1/evaluate", { key: t.keys.client, body })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({ error: { code: "invalid_request", message: "The request is invalid.", details } })
  })

  it("names the choices of an enumeration, and what was sent", async () => {
    const reply = await request(t.url, "POST", "/v1/projects/p1/flags", {
      key: t.keys.global,
      body: { key: "a", name: "A", type: "bool", variations: [{ key: "on", value: true }] }
    })
    expect(reply.body).toMatchObject({
      error: { details: [{ path: "type", message: 'must be one of "boolean", "string", "number", "json", not the string "bool"' }] }
    })
  })
})
