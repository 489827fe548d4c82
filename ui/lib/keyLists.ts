/**
 * A segment's key lists through the API: read both lists' sizes, replace one from a file, add and
 * remove keys, and look for one key. There is no lookup route: the list is streamed and read line
 * by line until the key turns up (then the download stops), so even a million keys never sit in
 * the page's memory at once.
 */
import { openStream, projectPath, request, seg } from "./api.js"
import type { KeyListInfo, KeyLists } from "./types.js"

export type ListName = "included" | "excluded"

const listPath = (projectId: string, segmentKey: string, list?: ListName): string =>
  projectPath(projectId, `/segments/${seg(segmentKey)}/keys${list === undefined ? "" : `/${list}`}`)

export const loadKeyLists = (projectId: string, segmentKey: string): Promise<KeyLists> =>
  request<KeyLists>("GET", listPath(projectId, segmentKey))

/** A `.csv` file (or one the browser calls CSV) goes as `text/csv` (a header row), anything else as `text/plain`, one key a line. */
export const uploadType = (file: { readonly name: string; readonly type: string }): "text/csv" | "text/plain" =>
  file.type === "text/csv" || /\.csv$/i.test(file.name) ? "text/csv" : "text/plain"

export const replaceKeys = (projectId: string, segmentKey: string, list: ListName, file: File): Promise<KeyListInfo> =>
  request<KeyListInfo>("PUT", listPath(projectId, segmentKey, list), file, { "content-type": uploadType(file) })

/** The keys of a text box: one a line or separated by commas, blanks dropped. */
export const keysOf = (text: string): ReadonlyArray<string> =>
  text.split(/[\n,]/).map((k) => k.trim()).filter((k) => k !== "")

export const changeKeys = (projectId: string, segmentKey: string, list: ListName, add: ReadonlyArray<string>, remove: ReadonlyArray<string>): Promise<KeyListInfo> =>
  request<KeyListInfo>("PATCH", listPath(projectId, segmentKey, list), { add, remove })

/** Whether `chunks` (the list's text as it arrives) hold `key` as a whole line; stops reading at the first match. */
export const holdsKey = async (chunks: AsyncIterable<string>, key: string): Promise<boolean> => {
  let rest = ""
  for await (const chunk of chunks) {
    const lines = (rest + chunk).split("\n")
    rest = lines.pop() ?? ""
    if (lines.includes(key)) return true
  }
  return rest === key
}

const textChunks = async function* (body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      yield decoder.decode(value, { stream: true })
    }
    yield decoder.decode()
  } finally {
    // Found early (or failed): the rest of the list is not downloaded.
    await reader.cancel().catch(() => undefined)
  }
}

export const findKey = async (projectId: string, segmentKey: string, list: ListName, key: string): Promise<boolean> => {
  const response = await openStream(listPath(projectId, segmentKey, list))
  return response.body === null ? false : holdsKey(textChunks(response.body), key)
}
