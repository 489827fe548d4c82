/**
 * A lane's answer (plain data: status, headers, body or an event stream) written to a node
 * `ServerResponse` or made a web `Response`, with the security headers every answer carries.
 */
import type { ServerResponse } from "node:http"
import type { LaneResponse } from "../shared/EvaluationLaneService.js"
import type { StreamOpening } from "../shared/EventStream.js"
import { encodeBody } from "../shared/BodySlab.js"
import { SECURITY_HEADERS } from "../shared/SecurityHeaders.js"
import { endSoon } from "./EndBatch.js"

/** String bodies are encoded into slices of a shared slab (shared/BodySlab.ts). */
export { encodeBody }

/** A stream answer: headers now, then events as the stream writes them, until either side ends it. */
const writeNodeStream = (res: ServerResponse, response: LaneResponse & { readonly stream: StreamOpening }): void => {
  res.writeHead(response.status, { ...SECURITY_HEADERS, ...response.headers })
  res.flushHeaders()
  let detached = false
  const detachOnce = () => {
    if (detached) return
    detached = true
    detach()
  }
  const detach = response.stream.start({
    write: (chunk) => {
      res.write(chunk)
    },
    end: () => {
      res.end()
    }
  })
  res.once("close", detachOnce)
  // A client that left while the answer was being prepared closed the socket already: "close" will not come again.
  if (res.destroyed || res.socket === null || res.socket.destroyed) detachOnce()
}

/** The security headers as name, value, name, value...: what every answer's header list starts with. */
const SECURITY_FLAT: ReadonlyArray<string> = Object.entries(SECURITY_HEADERS).flat()

/**
 * Writes a lane answer. The headers go to node as one flat list (name, value, ...), which it
 * writes as they come, without an object to spread or walk; the security headers come first,
 * except those the answer sets itself (the dashboard's fuller Content-Security-Policy wins). A
 * string body is encoded once here: its length is the encoded one's, and the socket gets the
 * bytes (measuring a string's UTF-8 length walks it, and writing it encodes it again): see `encodeBody`.
 */
export const writeNode = (res: ServerResponse, response: LaneResponse): void => {
  if (response.stream !== undefined) return writeNodeStream(res, response as LaneResponse & { readonly stream: StreamOpening })
  const own = response.headers
  const flat: Array<string | number> = []
  for (let i = 0; i < SECURITY_FLAT.length; i += 2) {
    if (own[SECURITY_FLAT[i]!] === undefined) flat.push(SECURITY_FLAT[i]!, SECURITY_FLAT[i + 1]!)
  }
  for (const name in own) flat.push(name, own[name]!)
  const body = typeof response.body === "string" ? encodeBody(response.body) : response.body
  if (body !== undefined) {
    flat.push("content-length", body.byteLength)
    if (response.status === 413) flat.push("connection", "close")
  }
  res.writeHead(response.status, flat as Array<string>)
  endSoon(res, body)
}

export const toWebResponse = (response: LaneResponse): Response =>
  new Response(response.stream !== undefined ? webStream(response.stream) : response.body === undefined ? null : (response.body as BodyInit), {
    status: response.status,
    headers: { ...SECURITY_HEADERS, ...response.headers }
  })

const encoder = new TextEncoder()

/** A stream answer as a web ReadableStream; cancelling it (the client went away) detaches the stream. */
const webStream = (stream: StreamOpening): ReadableStream<Uint8Array> => {
  let detach: (() => void) | undefined
  return new ReadableStream<Uint8Array>({
    start: (controller) => {
      let ended = false
      detach = stream.start({
        write: (chunk) => {
          if (!ended) controller.enqueue(encoder.encode(chunk))
        },
        end: () => {
          if (ended) return
          ended = true
          controller.close()
        }
      })
    },
    cancel: () => detach?.()
  })
}

