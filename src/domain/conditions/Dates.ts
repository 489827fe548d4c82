/**
 * Dates for the `before` / `after` operators: an ISO 8601 string or epoch milliseconds.
 *
 * `Date.parse` alone is too lenient (it accepts "2026-02-30" and many non-ISO forms)
 * and reads a date-time without offset as local time, which would make evaluation
 * depend on the server's time zone. So the shape is checked here, the calendar date
 * is checked, and a missing offset means UTC.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** Epoch milliseconds of an ISO 8601 string, or NaN when it is not one. */
export const parseIso = (input: string): number => {
  if (input.length > 40) return NaN
  const m = ISO.exec(input)
  if (m === null) return NaN
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN
  const hour = m[4] === undefined ? 0 : Number(m[4])
  const minute = m[5] === undefined ? 0 : Number(m[5])
  const second = m[6] === undefined ? 0 : Number(m[6])
  if (hour > 23 || minute > 59 || second > 59) return NaN
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"))
  let offsetMinutes = 0
  const zone = m[8]
  if (zone !== undefined && zone !== "Z" && zone !== "z") {
    const sign = zone[0] === "-" ? -1 : 1
    const digits = zone.slice(1).replace(":", "")
    const oh = Number(digits.slice(0, 2))
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0
    if (oh > 23 || om > 59) return NaN
    offsetMinutes = sign * (oh * 60 + om)
  }
  // Date.UTC reads years 0-99 as 1900-1999; setting the full year afterwards keeps year 50 as 50.
  const utc = new Date(Date.UTC(2000, 0, 1, hour, minute, second, millis))
  utc.setUTCFullYear(year, month - 1, day)
  return utc.getTime() - offsetMinutes * 60_000
}

/** Epoch milliseconds of a date value (ISO string or finite number), or NaN. */
export const toEpochMillis = (value: unknown): number => {
  if (typeof value === "number") return Number.isFinite(value) ? value : NaN
  if (typeof value === "string") return parseIso(value)
  return NaN
}
