/** The dashboard's search in a streamed key list: whole lines only, a key split across chunks, the last line without its newline, and reading stops at the match. */
import { describe, expect, it } from "vitest"
import { holdsKey, keysOf, uploadType } from "../../ui/lib/keyLists.js"

const chunks = async function* (parts: ReadonlyArray<string>, read: Array<string> = []) {
  for (const part of parts) {
    read.push(part)
    yield part
  }
}

describe("searching a streamed key list", () => {
  it("finds whole lines only, across chunk edges and on the last line", async () => {
    expect(await holdsKey(chunks(["acct-1\nac", "ct-22\nacct-3"]), "acct-22")).toBe(true)
    expect(await holdsKey(chunks(["acct-1\nacct-22\n"]), "acct-2")).toBe(false)
    expect(await holdsKey(chunks(["acct-1\nacct-3"]), "acct-3")).toBe(true)
    expect(await holdsKey(chunks([]), "acct-1")).toBe(false)
  })

  it("stops reading at the first match", async () => {
    const read: Array<string> = []
    expect(await holdsKey(chunks(["a\nb\n", "c\n", "d\n"], read), "b")).toBe(true)
    expect(read).toEqual(["a\nb\n"])
  })

  it("reads keys from a text box and sends a file by its kind", () => {
    expect(keysOf(" acct-1, acct-2\n\nacct-3 ,")).toEqual(["acct-1", "acct-2", "acct-3"])
    expect(uploadType({ name: "beta.CSV", type: "" })).toBe("text/csv")
    expect(uploadType({ name: "beta", type: "text/csv" })).toBe("text/csv")
    expect(uploadType({ name: "beta.txt", type: "text/plain" })).toBe("text/plain")
  })
})
