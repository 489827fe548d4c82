/**
 * The sign-in page shows a single sign-on refusal only when it is one of the server's messages
 * (src/domain/people/SignInRefusal.ts): a crafted link's words are not shown.
 */
import { describe, expect, it } from "@effect/vitest"
import { isSignInRefusal, SIGN_IN_REFUSALS } from "../../src/domain/people/SignInRefusal.js"

describe("sign-in refusals", () => {
  it.each(Object.values(SIGN_IN_REFUSALS))("recognizes %j", (message) => {
    expect(isSignInRefusal(message)).toBe(true)
  })

  it.each([null, undefined, "", "Call 555-0100 to restore your account.", `${SIGN_IN_REFUSALS.signInFailed} `, SIGN_IN_REFUSALS.signInFailed.toUpperCase()])(
    "refuses %j",
    (text) => {
      expect(isSignInRefusal(text)).toBe(false)
    }
  )
})
