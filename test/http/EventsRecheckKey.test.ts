import { describe, expect, it } from "vitest"
import { recheckKeyOf } from "../../adapters/http/api/events/EventsLive.js"

const TOKEN = "abcdefghijklmnopqrstuvwxyz012345"

describe("the events stream's recheck is shared per credential, not per header text", () => {
  it.each([
    ["a key: its id, whatever the cookies", "k1", "flagport_session=x; junk=1", "key:k1"],
    ["a session: its token", undefined, `flagport_session=${TOKEN}`, `session:${TOKEN}`],
    ["a session with an extra cookie: the same token", undefined, `flagport_session=${TOKEN}; junk=2`, `session:${TOKEN}`],
    ["the https cookie name", undefined, `junk=3; __Host-flagport_session=${TOKEN}`, `session:${TOKEN}`]
  ])("%s", (_, keyId, cookie, expected) => {
    expect(recheckKeyOf(keyId, cookie)).toBe(expected)
  })

  it("varying junk cookies beside one session give one key", () => {
    const keys = new Set(Array.from({ length: 50 }, (_, i) => recheckKeyOf(undefined, `flagport_session=${TOKEN}; junk=${i}`)))
    expect(keys.size).toBe(1)
  })
})
