/**
 * Who may write directly into an environment (domain/changes/Protection.ts), as a table: every
 * kind of writer against a protected and an unprotected environment, with and without an approved
 * change request being applied.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { Actor } from "../../../src/domain/audit/Actor.js"
import { changeRequestRequiredMessage, directWrite } from "../../../src/domain/changes/Protection.js"

const WRITERS: Record<string, Actor> = {
  person: { type: "user", userId: "u1", email: "edna@example.com" },
  serverKey: { type: "key", keyId: "k1", keyName: "deploy" },
  keySchedule: { type: "schedule", keyId: "k1", keyName: "deploy" },
  personSchedule: { type: "schedule", userId: "u1", email: "edna@example.com" },
  cli: { type: "cli" }
}

const refused = changeRequestRequiredMessage("production")

// writer, protected, via an approved change request, expected (true = allowed, else the message)
const TABLE: ReadonlyArray<readonly [keyof typeof WRITERS, boolean, boolean, true | string]> = [
  ["person", false, false, true],
  ["person", true, false, refused],
  ["person", true, true, true],
  ["personSchedule", false, false, true],
  ["personSchedule", true, false, refused],
  ["serverKey", true, false, true],
  ["serverKey", false, false, true],
  ["keySchedule", true, false, true],
  ["cli", true, false, true],
  ["cli", false, false, true]
]

describe("directWrite", () => {
  it.each(TABLE)("%s, protected %s, via change request %s: %s", (writer, isProtected, via, expected) => {
    const decision = directWrite(WRITERS[writer]!, { key: "production", protected: isProtected }, via)
    expect(Either.isRight(decision) ? true : decision.left.message).toEqual(expected)
  })

  it("words the refusal as the contract does", () => {
    expect(refused).toBe("Changes to production need an approved change request")
    const decision = directWrite(WRITERS.person!, { key: "production", protected: true })
    expect(Either.isLeft(decision) && decision.left._tag).toBe("ChangeRequestRequired")
  })
})
