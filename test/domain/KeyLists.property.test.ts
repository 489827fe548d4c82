/**
 * The reference meaning of a segment's key lists, checked on arbitrary valid definitions: a
 * segment with lists `included` (I) and `excluded` (E) and conditions C is the segment whose one
 * condition is the group `anyOf [[key in I], [key not in E, ...C]]` (only `[[key in I]]` when C is
 * empty). The rewritten definition has no lists, so the evaluator's plain paths are the reference;
 * the lists are built from the keys (the server) and from their hashes (an SDK) alike.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { type ConditionOrGroup, isGroup } from "../../src/domain/definitions/Condition.js"
import type { KeyListSource } from "../../src/domain/evaluation/CompileSegments.js"
import type { ConfigSnapshot, SnapshotSegment } from "../../src/domain/evaluation/ConfigSnapshot.js"
import * as Evaluate from "../../src/domain/evaluation/Evaluate.js"
import { KeySet } from "../../src/domain/evaluation/KeySet.js"
import { contextArbitrary, snapshotArbitrary } from "./arbitraries.js"

const POOL = ["US", "pro", "user-1", "user-2", "ü-3", "", "a\u0000b"] as const
const subset = fc.subarray([...POOL])
const listsArbitrary = fc.record({ included: fc.option(subset, { nil: undefined }), excluded: fc.option(subset, { nil: undefined }) })

type Lists = { readonly included: ReadonlyArray<string> | undefined; readonly excluded: ReadonlyArray<string> | undefined }

/** The segment rewritten without lists, by its reference meaning (above). */
const reference = (segment: SnapshotSegment, lists: Lists): SnapshotSegment => {
  if (lists.included === undefined && lists.excluded === undefined) return segment
  const inIncluded = { attribute: "key", operator: "in" as const, values: [...(lists.included ?? [])] }
  const notExcluded = { attribute: "key", operator: "in" as const, values: [...(lists.excluded ?? [])], negate: true }
  const rest: Array<ConditionOrGroup> = segment.conditions.length === 0 ? [] : [{ anyOf: [[inIncluded], [notExcluded, ...(segment.conditions as Array<never>)]] }]
  return { key: segment.key, conditions: segment.conditions.length === 0 ? [{ anyOf: [[inIncluded]] }] : rest }
}

const withLists = (snap: ConfigSnapshot, lists: ReadonlyArray<Lists>): ConfigSnapshot => ({
  ...snap,
  segments: snap.segments.map((s, i) => {
    const l = lists[i]!
    return {
      ...s,
      ...(l.included === undefined ? {} : { included: { version: 1, count: l.included.length } }),
      ...(l.excluded === undefined ? {} : { excluded: { version: 1, count: l.excluded.length } })
    }
  })
})

/** The lists' source, from the keys or from their hashes. */
const sourceOf = (snap: ConfigSnapshot, lists: ReadonlyArray<Lists>, fromHashes: boolean): KeyListSource => (segmentKey, list) => {
  const index = snap.segments.findIndex((s) => s.key === segmentKey)
  const keys = lists[index]?.[list]
  if (keys === undefined) return undefined
  const fromKeys = KeySet.fromKeys(`salt-${segmentKey}-${list}`, keys)
  return fromHashes ? KeySet.fromHashes(fromKeys.salt, fromKeys.hashes()) : fromKeys
}

describe("segment key lists against their reference meaning", () => {
  it.prop(
    "a segment with lists evaluates as its rewriting without them, for every flag, from keys or hashes",
    [snapshotArbitrary, fc.array(listsArbitrary, { minLength: 2, maxLength: 2 }), contextArbitrary, fc.constantFrom(...POOL), fc.boolean()],
    ([snap, lists, context, key, fromHashes]) => {
      // A group cannot hold a group: segments whose conditions hold one keep no lists here.
      const usable = lists.map((l, i) => (snap.segments[i]!.conditions.some(isGroup) ? { included: undefined, excluded: undefined } : l))
      const listed = Evaluate.compile(withLists(snap, usable), sourceOf(snap, usable, fromHashes))
      const rewritten = Evaluate.compile({ ...snap, segments: snap.segments.map((s, i) => reference(s, usable[i]!)) })
      for (const ctx of [context, { ...context, key }]) {
        for (const flag of snap.flags) expect(Evaluate.evaluate(listed, flag.key, ctx)).toEqual(Evaluate.evaluate(rewritten, flag.key, ctx))
      }
    },
    { fastCheck: { numRuns: 400 } }
  )
})

describe("KeySet and lists not loaded", () => {
  it("answers as a Set of its keys, from the keys or from their hashes; another salt hashes otherwise", () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `user-${i}`)
    const set = KeySet.fromKeys("s", [...keys, "user-1"])
    expect(set.size).toBe(5000)
    const again = KeySet.fromHashes("s", set.hashes())
    for (const probe of ["user-0", "user-4999", "user-5000", "", "ü"]) {
      expect(set.has(probe), probe).toBe(keys.includes(probe))
      expect(again.has(probe), probe).toBe(keys.includes(probe))
    }
    expect(KeySet.fromKeys("t", ["a"]).hashes()).not.toEqual(KeySet.fromKeys("s", ["a"]).hashes())
  })

  it("a segment naming a list its source does not hold: ERROR SEGMENT_LIST_NOT_LOADED with the off variation, never a guess", () => {
    const snap: ConfigSnapshot = {
      environment: "production",
      flags: [{
        key: "f",
        type: "boolean",
        enabled: true,
        variations: [{ key: "on", value: true }, { key: "off", value: false }],
        defaultVariationKey: "on",
        offVariationKey: "off",
        rules: [{ id: "r", conditions: [{ operator: "notInSegment", values: ["s"] }], variationKey: "on" }]
      }],
      segments: [{ key: "s", conditions: [], excluded: { version: 3, count: 10 } }]
    }
    expect(Evaluate.evaluate(Evaluate.compile(snap), "f", { key: "anyone" })).toMatchObject({
      value: false,
      variationKey: "off",
      reason: { kind: "ERROR", error: "SEGMENT_LIST_NOT_LOADED: rule \"r\": the excluded keys of segment \"s\" are not loaded" }
    })
  })
})
