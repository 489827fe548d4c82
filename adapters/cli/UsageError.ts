import * as Data from "effect/Data"
/** A command line that parses but asks for something the contract refuses (exit code 2). */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}
