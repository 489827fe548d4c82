import * as Data from "effect/Data"
/**
 * A command that ends with a given exit code, having said what it had to say itself (Failure.ts
 * prints nothing more): `apply --detailed-exitcode` exits 2 when its plan has changes, and exits 1
 * after listing every problem of a file on its own line.
 */
export class ExitWith extends Data.TaggedError("ExitWith")<{ readonly code: number }> {}
