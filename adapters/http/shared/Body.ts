/**
 * The request-body rules every route shares: the 1 MiB cap, and the 413 / 415 that the headers
 * alone decide (checked after authentication, so an unauthenticated caller learns only "401").
 * The bytes actually read are capped by the transports (serving/BodyReader.ts, and
 * `MaxBodySize` for the HttpApi app).
 */
import * as Errors from "./Errors.js"

export const MAX_BODY_BYTES = 1024 * 1024

/** Thrown by a transport's body reader when the body passes `MAX_BODY_BYTES`. */
export class BodyTooLarge extends Error {
  constructor() {
    super("request body over 1 MiB")
  }
}

/**
 * The one content-type rule: the media type is exactly `application/json` (any case), with or
 * without parameters (`; charset=utf-8`). `application/jsonx` or `application/json-patch+json`
 * are other media types, answered 415.
 */
export const isJsonContentType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const semicolon = contentType.indexOf(";")
  const mediaType = semicolon === -1 ? contentType : contentType.slice(0, semicolon)
  return mediaType.trim().toLowerCase() === "application/json"
}

/** Whether the request announces a body (a length above zero, or a chunked body). */
export const announcesBody = (header: (name: string) => string | undefined): boolean => {
  const length = header("content-length")
  if (length !== undefined) return Number(length) > 0
  return header("transfer-encoding") !== undefined
}

/** YAML's media types (RFC 9512, and the older ones tools still send). */
const YAML_MEDIA_TYPES = new Set(["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"])

/** Whether the content type is YAML's, with or without parameters. */
export const isYamlContentType = (contentType: string | undefined): boolean =>
  contentType !== undefined && YAML_MEDIA_TYPES.has((contentType.split(";")[0] ?? "").trim().toLowerCase())

/**
 * The routes whose body may also be YAML (route templates as the router names them): a project
 * file is written by hand, and YAML is how it is kept (docs/guide/flags-as-code.md); flagd reads
 * its flag definition files in YAML too.
 */
export const YAML_BODY_ROUTES: ReadonlySet<string> = new Set(["/v1/projects/:projectId/apply", "/v1/projects/:projectId/import/flagd"])

/** 413 / 415 from the headers alone; the transports also cap the bytes actually read. */
export const checkBodyHeaders = (
  header: (name: string) => string | undefined,
  alsoYaml = false
): Errors.PayloadTooLarge | Errors.UnsupportedMediaType | undefined => {
  if (!announcesBody(header)) return undefined
  const length = header("content-length")
  if (length !== undefined && Number(length) > MAX_BODY_BYTES) return Errors.payloadTooLarge()
  const contentType = header("content-type")
  if (!isJsonContentType(contentType) && !(alsoYaml && isYamlContentType(contentType))) return Errors.unsupportedMediaType()
  return undefined
}

/**
 * How deeply a JSON body may nest arrays and objects. Far beyond any real flag or context, and
 * far below the depth (a few thousand) where recursive schema decoding and its error messages
 * overflow the stack.
 */
export const MAX_JSON_DEPTH = 64

/**
 * Whether the text holds more than `MAX_JSON_DEPTH` opening brackets (in strings or not): when it
 * holds fewer, nothing can nest deeper, and the character-by-character pass is not needed. A few
 * `indexOf` calls for a usual body (an evaluation request has three or four).
 */
const hasManyOpenings = (text: string): boolean => {
  let n = 0
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++n > MAX_JSON_DEPTH) return true
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++n > MAX_JSON_DEPTH) return true
  return false
}

/**
 * Whether JSON text nests deeper than `MAX_JSON_DEPTH`: one linear pass over the text, before
 * any parsing (brackets inside strings do not count). Malformed text is left to the parser.
 */
export const nestsTooDeeply = (text: string): boolean => {
  if (!hasManyOpenings(text)) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++ // backslash: the next character is escaped
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return false
}

/**
 * A request body read as JSON for the evaluation routes, each of which words its own errors: the
 * parsed value, or why there is none (`empty`: no bytes; `tooDeep`: nests past `MAX_JSON_DEPTH`,
 * checked before parsing; `malformed`: not JSON).
 */
export const parseJsonBody = (bytes: Uint8Array): { readonly json: unknown } | "empty" | "tooDeep" | "malformed" => {
  if (bytes.length === 0) return "empty"
  // A Buffer (node's chunks are) decodes itself; a plain Uint8Array (a web body) through a view.
  const text = Buffer.isBuffer(bytes) ? bytes.toString("utf8") : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")
  if (nestsTooDeeply(text)) return "tooDeep"
  try {
    return { json: JSON.parse(text) }
  } catch {
    return "malformed"
  }
}

/**
 * The one route whose body is neither JSON nor capped at 1 MiB: the upload of a segment's key list
 * (`PUT /v1/projects/{p}/segments/{s}/keys/{list}`, up to a million keys), read as a stream by its
 * handler (api/segments/SegmentKeysLive.ts) and written as it arrives. Every transport lets its
 * body through unread and uncapped; the use case bounds what it keeps (`segmentKeysPerList`).
 */
const KEY_LIST_UPLOAD = /^\/v1\/projects\/[^/]+\/segments\/[^/]+\/keys\/[^/]+$/

/** Whether a request (its method and path, the prefix stripped) is a key list upload. */
export const isKeyListUpload = (method: string, path: string): boolean => method === "PUT" && KEY_LIST_UPLOAD.test(path)

/** The format of an upload by its media type: `text/plain` one key a line, `text/csv` with a header row; undefined for any other. */
export const keyListFormatOf = (contentType: string | undefined): "lines" | "csv" | undefined => {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase()
  return mediaType === "text/plain" ? "lines" : mediaType === "text/csv" ? "csv" : undefined
}
