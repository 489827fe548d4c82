/**
 * Where a sign-in returns (adapters/http/signin/ReturnTo.ts): a path on Flagport's origin, and
 * nothing a browser would take to another host.
 */
import { describe, expect, it } from "@effect/vitest"
import { returnUrl, safeReturnTo } from "../../adapters/http/signin/ReturnTo.js"

describe("returnTo", () => {
  it.each(["/ui/", "/ui/#/projects/p1/flags", "/flags/ui/#/flags?x=1", "/ui/?a=b#c", "/ui/%2F%2Fevil.example"])("keeps the path %j", (path) => {
    expect(safeReturnTo(path)).toBe(path)
  })

  it.each([
    undefined,
    null,
    "",
    "ui/",
    "https://evil.example/ui/",
    "//evil.example/ui/",
    "/\\evil.example",
    "\\/evil.example",
    "/ui/\\..\\",
    "/\tui/",
    "/\n/evil.example",
    "javascript:alert(1)",
    `/${"a".repeat(2048)}`
  ])("refuses %j", (raw) => {
    expect(safeReturnTo(raw)).toBeUndefined()
  })

  it("resolves on the public URL's origin, else lands on the dashboard under the public URL", () => {
    expect(returnUrl("https://example.com/flags", "/flags/ui/#/flags")).toBe("https://example.com/flags/ui/#/flags")
    expect(returnUrl("https://example.com/flags", "//evil.example/")).toBe("https://example.com/flags/ui/")
    expect(returnUrl("http://127.0.0.1:8080", undefined)).toBe("http://127.0.0.1:8080/ui/")
    for (const raw of ["/ui/", "//evil.example", "/\\evil.example", "https://evil.example"]) {
      expect(new URL(returnUrl("https://flags.example.com", raw)).origin).toBe("https://flags.example.com")
    }
  })
})
