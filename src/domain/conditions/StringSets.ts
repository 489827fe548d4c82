/**
 * Many-valued string operators in time linear in the attribute, whatever the number of values.
 *
 * `contains` with V values tested one by one costs V searches per string; an attacker who can
 * send many strings to a condition with many values multiplies the two (issue 10: 10,000 values x
 * 10,000 strings blocked the server for 2 s). Compiled once per snapshot instead:
 * - `contains`: an Aho-Corasick automaton over all values. One pass over the string; each
 *   character follows one transition plus failure links whose total is bounded by the characters
 *   read (the classic amortised argument), so a test is O(string length).
 * - `startsWith`: a trie of the values, walked from the string's first character; it stops at
 *   the first complete value or missing edge: O(min(string length, longest value)).
 * - `endsWith`: the same trie over the reversed values, walked from the string's last character.
 *
 * Characters are UTF-16 code units, exactly as `String.prototype.includes`/`startsWith`/`endsWith`
 * compare them, so the answers are the same (a property test checks it).
 */

/** True when the set's values relate to `input` as the operator requires. */
export type StringTest = (input: string) => boolean

/** A trie: node 0 is the root; `edges[n]` maps a code unit to the child; `final[n]` marks a complete value. */
interface Trie {
  readonly edges: Array<Map<number, number>>
  readonly final: Array<boolean>
}

const trie = (values: ReadonlyArray<string>, reversed: boolean): Trie => {
  const t: Trie = { edges: [new Map()], final: [false] }
  for (const value of values) {
    let node = 0
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(reversed ? value.length - 1 - i : i)
      let next = t.edges[node]!.get(c)
      if (next === undefined) {
        next = t.edges.length
        t.edges.push(new Map())
        t.final.push(false)
        t.edges[node]!.set(c, next)
      }
      node = next
    }
    t.final[node] = true
  }
  return t
}

/** `input.startsWith(v)` for some value `v`. */
export const anyPrefix = (values: ReadonlyArray<string>): StringTest => {
  const { edges, final } = trie(values, false)
  return (input) => {
    let node = 0
    for (let i = 0; ; i++) {
      if (final[node]) return true
      if (i === input.length) return false
      const next = edges[node]!.get(input.charCodeAt(i))
      if (next === undefined) return false
      node = next
    }
  }
}

/** `input.endsWith(v)` for some value `v`. */
export const anySuffix = (values: ReadonlyArray<string>): StringTest => {
  const { edges, final } = trie(values, true)
  return (input) => {
    let node = 0
    for (let i = input.length - 1; ; i--) {
      if (final[node]) return true
      if (i < 0) return false
      const next = edges[node]!.get(input.charCodeAt(i))
      if (next === undefined) return false
      node = next
    }
  }
}

/** `input.includes(v)` for some value `v` (Aho-Corasick). */
export const anySubstring = (values: ReadonlyArray<string>): StringTest => {
  const { edges, final } = trie(values, false)
  // The empty string is in every string.
  if (final[0]) return () => true
  const fail = new Int32Array(edges.length)
  // Breadth-first, so a node's failure target is final before the node inherits from it: a node
  // is final when the value it spells, or any suffix of it, is a complete value.
  const queue: Array<number> = []
  for (const child of edges[0]!.values()) queue.push(child)
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!
    if (final[fail[node]!]) final[node] = true
    for (const [c, child] of edges[node]!) {
      let f = fail[node]!
      while (f !== 0 && !edges[f]!.has(c)) f = fail[f]!
      const target = edges[f]!.get(c)
      fail[child] = target !== undefined && target !== child ? target : 0
      queue.push(child)
    }
  }
  return (input) => {
    let node = 0
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i)
      let next = edges[node]!.get(c)
      while (next === undefined && node !== 0) {
        node = fail[node]!
        next = edges[node]!.get(c)
      }
      node = next ?? 0
      if (final[node]) return true
    }
    return false
  }
}
