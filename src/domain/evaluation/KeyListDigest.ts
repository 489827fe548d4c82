/**
 * A key list's identity for comparing two copies of it (a project file's list file and the stored
 * list, flags as code: ascode/FileKeyLists.ts) without holding either's keys: the number of distinct
 * keys and a digest of them that does not depend on their order.
 */
import { KeySetBuilder } from "./KeySet.js"

/** A list's identity for comparing: how many distinct keys, and a digest of them (in any order). */
export interface ListDigest {
  readonly count: number
  readonly digest: string
}

/** The digest of the empty list. */
export const EMPTY_DIGEST: ListDigest = { count: 0, digest: "0000000000000000:0000000000000000" }

/** The salt of the digest's key hashes: a fixed one, so a file's digest and a stored list's compare. */
const DIGEST_SALT = "flagport/key-list-digest"

/**
 * The digest of a list fed a part at a time (`add` each chunk of keys as it is read): its distinct
 * keys' 64-bit hashes (KeyHash.ts) gathered in a KeySet (16 MB for a million keys, not the keys),
 * then summed and xored word by word, which does not depend on their order. Two lists with the same
 * count and digest are taken as the same: a different list matches only if the sums and xors of
 * its keys' 64-bit hashes all collide.
 */
export class KeyListDigest {
  private readonly builder: KeySetBuilder
  constructor(expected = 1024) {
    this.builder = new KeySetBuilder(DIGEST_SALT, expected)
  }

  add(keys: ReadonlyArray<string>): void {
    this.builder.addKeys(keys)
  }

  result(): ListDigest {
    const set = this.builder.build()
    const hashes = set.hashes()
    let sumHigh = 0
    let sumLow = 0
    let xorHigh = 0
    let xorLow = 0
    for (let i = 0; i + 1 < hashes.length; i += 2) {
      sumHigh = (sumHigh + hashes[i]!) >>> 0
      sumLow = (sumLow + hashes[i + 1]!) >>> 0
      xorHigh = (xorHigh ^ hashes[i]!) >>> 0
      xorLow = (xorLow ^ hashes[i + 1]!) >>> 0
    }
    const hex = (n: number) => n.toString(16).padStart(8, "0")
    return { count: set.size, digest: `${hex(sumHigh)}${hex(sumLow)}:${hex(xorHigh)}${hex(xorLow)}` }
  }
}
