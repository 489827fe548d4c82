/**
 * One request of a command to a running server (`--url URL --key KEY`): the answer's status and
 * body, or the server's error envelope as a failure naming its message and problems.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/** The server could not be asked, or refused; `details` are the envelope's problems, when it had some. */
export class ServerRefused extends Data.TaggedError("ServerRefused")<{
  readonly message: string
  readonly details?: ReadonlyArray<{ readonly path: string; readonly message: string }>
}> {}

export interface ServerAnswer {
  readonly status: number
  readonly text: string
}

export const callServer = (
  url: string,
  key: string,
  path: string,
  init: { readonly method?: string; readonly body?: string; readonly contentType?: string } = {}
): Effect.Effect<ServerAnswer, ServerRefused> =>
  Effect.tryPromise({
    // Interrupted (a signal), the request is aborted rather than left open.
    try: async (signal) => {
      const response = await fetch(`${url.replace(/\/+$/, "")}${path}`, {
        signal,
        method: init.method ?? "GET",
        headers: { authorization: `Bearer ${key}`, ...(init.contentType === undefined ? {} : { "content-type": init.contentType }) },
        ...(init.body === undefined ? {} : { body: init.body })
      })
      return { status: response.status, text: await response.text() }
    },
    catch: (error) => new ServerRefused({ message: `cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}` })
  }).pipe(
    Effect.flatMap((answer) => {
      if (answer.status >= 200 && answer.status < 300) return Effect.succeed(answer)
      let refusal = new ServerRefused({ message: `the server refused: ${answer.status}` })
      try {
        const body = JSON.parse(answer.text) as { error?: { message?: unknown; details?: unknown } }
        if (typeof body.error?.message === "string") {
          refusal = new ServerRefused({
            message: `the server refused: ${answer.status}: ${body.error.message}`,
            ...(Array.isArray(body.error.details) ? { details: body.error.details as ReadonlyArray<{ path: string; message: string }> } : {})
          })
        }
      } catch {
        // not the envelope: the status says it
      }
      return Effect.fail(refusal)
    })
  )
