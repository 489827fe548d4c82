/** True for values that survive a JSON round trip unchanged (finite numbers, plain objects, arrays...). */
export const isJson = (value: unknown, depth = 0): boolean => {
  if (depth > 64) return false
  switch (typeof value) {
    case "string":
    case "boolean":
      return true
    case "number":
      return Number.isFinite(value)
    case "object":
      if (value === null) return true
      if (Array.isArray(value)) return value.every((v) => isJson(v, depth + 1))
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return false
      return Object.values(value).every((v) => isJson(v, depth + 1))
    default:
      return false
  }
}
