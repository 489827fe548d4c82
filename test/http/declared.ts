/**
 * The statuses the OpenAPI document declares for the operation a request reaches, so a suite can
 * check that every answer it saw is one its operation lists (a status the document omits would
 * surprise every generated client).
 */
type Spec = { readonly paths: Record<string, Record<string, { readonly responses: Record<string, unknown> }>> }

const templates = (spec: Spec) =>
  Object.keys(spec.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`)
  }))

/**
 * `undefined` when no operation matches (an unknown route or method, or a route outside the
 * document such as `/openapi.json`): those answers belong to no operation.
 */
export const declaredStatuses = (spec: Spec, method: string, url: string): { readonly operation: string; readonly statuses: ReadonlyArray<string> } | undefined => {
  const path = url.split("?")[0]
  const match = templates(spec).find(({ pattern }) => pattern.test(path))
  const operation = match === undefined ? undefined : spec.paths[match.template][method.toLowerCase()]
  if (match === undefined || operation === undefined) return undefined
  return { operation: `${method.toUpperCase()} ${match.template}`, statuses: Object.keys(operation.responses) }
}
