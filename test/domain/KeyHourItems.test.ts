/** The hourly budget of items per key of POST /v1/exposures: past it, refused (429) until the next clock hour; keys apart. */
import { describe, expect, it } from "vitest"
import { KeyHourItems } from "../../src/domain/experiments/Exposure.js"

const HOUR = 3_600_000

describe("KeyHourItems", () => {
  it("takes items until the key's budget for the hour is spent, takes nothing past it, starts again next hour", () => {
    const budget = new KeyHourItems(1000)
    const t = 10 * HOUR + 5
    expect(budget.take("k1", 600, t)).toBe(true)
    expect(budget.take("k1", 401, t + 1)).toBe(false)
    // A refused request took nothing: what is left may still be sent.
    expect(budget.take("k1", 400, t + 2)).toBe(true)
    expect(budget.take("k1", 1, t + 3)).toBe(false)
    // Another key has its own budget.
    expect(budget.take("k2", 1000, t + 4)).toBe(true)
    expect(budget.take("k1", 1000, 11 * HOUR)).toBe(true)
  })

  it("gives back what a request that kept nothing took, within the hour it was taken", () => {
    const budget = new KeyHourItems(1000)
    const t = 10 * HOUR
    expect(budget.take("k1", 1000, t)).toBe(true)
    budget.giveBack("k1", 400, t)
    expect(budget.take("k1", 400, t + 1)).toBe(true)
    expect(budget.take("k1", 1, t + 2)).toBe(false)
    // Taken last hour: this hour's budget is not given more.
    expect(budget.take("k1", 1000, 11 * HOUR)).toBe(true)
    budget.giveBack("k1", 1000, t)
    expect(budget.take("k1", 1, 11 * HOUR + 1)).toBe(false)
  })

  it("defaults to the declared limit", () => {
    const budget = new KeyHourItems()
    expect(budget.take("k", 100_000_000, 0)).toBe(true)
    expect(budget.take("k", 1, 1)).toBe(false)
  })
})
