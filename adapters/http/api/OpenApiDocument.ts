/**
 * Post-processing of the generated OpenAPI document. Every HttpApi carries a built-in
 * `HttpApiDecodeError` (400, `{_tag, issues, message}`) that this API never sends: the API-level
 * middleware turns decode failures into our envelope. So the document must not show it.
 */

type Json = Record<string, unknown>

const DECODE_ERROR_REF = "#/components/schemas/HttpApiDecodeError"
const BUILT_IN_SCHEMAS = ["HttpApiDecodeError", "Issue", "PropertyKey"]

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)

const withoutDecodeError = (schema: unknown): unknown => {
  if (!isRecord(schema) || !Array.isArray(schema.anyOf)) return schema
  const rest = schema.anyOf.filter((s) => !(isRecord(s) && s.$ref === DECODE_ERROR_REF))
  if (rest.length === schema.anyOf.length) return schema
  return rest.length === 1 ? rest[0] : { ...schema, anyOf: rest }
}

/**
 * `Schema.Unknown` becomes `{ "$id": "/schemas/unknown" }` at every use, and a JSON Schema `$id`
 * may appear only once in a document; the `$id` adds nothing, so drop it everywhere.
 */
const dropBuiltInIds = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) dropBuiltInIds(item)
  } else if (isRecord(node)) {
    if (typeof node.$id === "string" && node.$id.startsWith("/schemas/")) delete node.$id
    for (const value of Object.values(node)) dropBuiltInIds(value)
  }
}

/** Drops the built-in decode error from every response and from the components. */
export const removeBuiltInDecodeError = <S extends Json>(spec: S): S => {
  dropBuiltInIds(spec)
  const paths = isRecord(spec.paths) ? spec.paths : {}
  for (const item of Object.values(paths)) {
    if (!isRecord(item)) continue
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!isRecord(response) || !isRecord(response.content)) continue
        const json = response.content["application/json"]
        if (!isRecord(json)) continue
        const schema = withoutDecodeError(json.schema)
        if (schema !== json.schema) {
          json.schema = schema
          if (status === "400") {
            response.description =
              "The request is invalid (malformed JSON, a missing or mistyped field, an unknown field, a broken rule); `details` lists every problem with its JSON path."
          }
        }
      }
    }
  }
  const components = isRecord(spec.components) ? spec.components : undefined
  if (components && isRecord(components.schemas)) {
    for (const name of BUILT_IN_SCHEMAS) {
      delete components.schemas[name]
    }
  }
  return spec
}
