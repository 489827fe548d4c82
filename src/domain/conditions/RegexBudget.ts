/**
 * The meter of the `matches` work of one evaluation (`Limits.regexWorkPerEvaluation`).
 *
 * RE2 is linear: one test reads each character once with at most one thread per program
 * instruction, so it costs at most program size x (length + 1) steps. The context limits bound
 * the characters and validation each program's size, but a configuration may hold any number of
 * `matches` conditions, so only a total per evaluation bounds what one request can cost. Each test
 * is charged before it runs; one that would go past the budget is not run: it throws
 * `RegexBudgetExceeded`, which the evaluator turns into an ERROR result for the flag being
 * evaluated (the other flags of a bulk evaluation keep their answers, and those without
 * `matches` are never affected). The charge depends only on the configuration and the context,
 * never on time, so the same request always gets the same answer.
 *
 * Why a module-level meter rather than a parameter: evaluation is synchronous and never nested
 * (nothing else runs between `reset` and the result), and threading a meter through every operator
 * would cost the hot path of the operators that never need it.
 */
import { limit, REGEX_TEST_OVERHEAD } from "../Limits.js"

/** A test of a `matches` condition that would take the evaluation past its budget. */
export class RegexBudgetExceeded extends Error {
  constructor() {
    super(
      `REGEX_BUDGET_EXCEEDED: the matches conditions of this evaluation would read more than ${limit("regexWorkPerEvaluation").toLocaleString("en-US")} instruction-characters (program size x string length); send shorter attribute values, or use fewer or smaller patterns`
    )
  }
}

let remaining = limit("regexWorkPerEvaluation")

/** Starts an evaluation (one request: all the flags it evaluates share the budget). */
export const reset = (): void => {
  remaining = limit("regexWorkPerEvaluation")
}

/** Charges one test of a string of `length` against a program of `programSize`; throws when the budget cannot pay it. */
export const charge = (programSize: number, length: number): void => {
  const cost = programSize * (length + 1) + REGEX_TEST_OVERHEAD
  if (cost > remaining) throw new RegexBudgetExceeded()
  remaining -= cost
}
