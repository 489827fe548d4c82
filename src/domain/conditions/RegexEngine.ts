/**
 * The seam between the compiler and the regular expression engine of the `matches` operator.
 *
 * Why a seam: the engine (re2js, conditions/Re2.ts) is most of the evaluator's size. The server
 * compiles with it loaded eagerly (`Evaluate.compile`); the client SDK, whose bundle has a
 * budget, imports it on demand, only for a configuration with a `matches` condition, and hands
 * it to the same compiler (adapters/client/RegexLoading.ts).
 */

/** True when the pattern set matches somewhere in `input` (like RegExp.prototype.test). */
export type Tester = (input: string) => boolean

export interface RegexEngine {
  /** Compiles a condition's patterns for evaluation; a pattern the engine refuses never matches. */
  readonly compile: (patterns: ReadonlyArray<string>) => Tester
}
