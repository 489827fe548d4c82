/**
 * The segments' key lists as the server's evaluator holds them (KeySet.ts), loaded from storage
 * when a snapshot names a version this process does not hold yet, and shared by every environment
 * of the project (a segment serves them all). Each list is read a page of 10,000 keys at a time and
 * hashed as it is read, so a million keys are never a million strings at once. A list replaced
 * while it is read may be read partly old and partly new; its version then moved, and so did the
 * project's revision, so the next snapshot reads it again.
 */
import * as Effect from "effect/Effect"
import type { KeyListName, KeyListSource } from "../../domain/evaluation/CompileSegments.js"
import { KeyHashes, type KeySet } from "../../domain/evaluation/KeySet.js"
import { SegmentKeyRepository } from "../../ports/SegmentKeyRepository.js"

const PAGE = 10_000

/** A list the snapshot names: its segment and version. */
export interface NamedList {
  readonly segmentId: string
  readonly segmentKey: string
  readonly list: KeyListName
  readonly version: number
}

/** The salt of a list's hashes: its segment and list, the same for every version, so a version's keys hash as the last one's did. */
export const saltOf = (segmentId: string, list: KeyListName) => `${segmentId}/${list}`

export const make = Effect.gen(function* () {
  const keys = yield* SegmentKeyRepository
  const held = new Map<string, { readonly version: number; readonly set: KeySet }>()

  const load = (named: NamedList) =>
    Effect.gen(function* () {
      const hashes = new KeyHashes(saltOf(named.segmentId, named.list))
      let after: string | null = null
      for (;;) {
        const page: ReadonlyArray<string> = yield* keys.page(named.segmentId, named.list, after, PAGE)
        hashes.add(page)
        if (page.length < PAGE) break
        after = page[page.length - 1]!
      }
      const set = hashes.build()
      held.set(saltOf(named.segmentId, named.list), { version: named.version, set })
      return set
    })

  /** The source of these lists for the compiler, each loaded unless held at its version. */
  const sourceOf = (lists: ReadonlyArray<NamedList>) =>
    Effect.gen(function* () {
      const sets = new Map<string, KeySet>()
      for (const named of lists) {
        const known = held.get(saltOf(named.segmentId, named.list))
        sets.set(`${named.segmentKey}/${named.list}`, known !== undefined && known.version === named.version ? known.set : yield* load(named))
      }
      const source: KeyListSource = (segmentKey, list) => sets.get(`${segmentKey}/${list}`)
      return source
    })

  return { sourceOf }
})
