/**
 * The evaluation playground: an environment, a flag and a context, evaluated by
 * `GET /v1/flags/{flagKey}/eval` exactly as an application would see it (value, variation, reason).
 */
import { useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request, seg } from "../lib/api.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import type { Environment, EvaluationResult, Flag, List } from "../lib/types.js"

const loadChoices = async (projectId: string) => {
  const [environments, flags] = await Promise.all([
    request<List<Environment>>("GET", projectPath(projectId, "/environments")),
    request<List<Flag>>("GET", projectPath(projectId, "/flags"))
  ])
  return { environments: environments.data, flags: flags.data.map((f) => f.key) }
}

export const PlaygroundPage = ({ projectId }: { projectId: string }) => {
  const { loaded } = useLoad(() => loadChoices(projectId), [projectId])
  const [environment, setEnvironment] = useState("")
  const [flag, setFlag] = useState("")
  const [key, setKey] = useState("user-1")
  const [attributes, setAttributes] = useState("{}")
  const [result, setResult] = useState<EvaluationResult | null>(null)
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS)
  if (loaded.state !== "ready") return <Waiting loaded={loaded} />
  const { environments, flags } = loaded.data
  const env = environment || environments[0]?.key || ""
  const flagKey = flag || flags[0] || ""
  let attributesProblem: string | null = null
  try {
    const parsed: unknown = JSON.parse(attributes)
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) attributesProblem = "Attributes must be a JSON object."
  } catch (error) {
    attributesProblem = `Not valid JSON: ${error instanceof Error ? error.message : String(error)}`
  }
  const evaluate = async (e: Event) => {
    e.preventDefault()
    if (attributesProblem !== null) return
    const query = new URLSearchParams({ environment: env, key, attributes, projectId })
    try {
      setResult(await request<EvaluationResult>("GET", `/v1/flags/${seg(flagKey)}/eval?${query.toString()}`))
      setProblems(NO_PROBLEMS)
    } catch (error) {
      setResult(null)
      setProblems(fromError(error))
    }
  }
  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">Evaluation playground</h1>
      <form class="card" onSubmit={evaluate} aria-label="Evaluate a flag" noValidate>
        <ErrorSummary problems={problems} />
        <div class="row">
          <Field label="Environment" problems={at(problems, "environment")}>
            {(ctl) => (
              <select {...ctl} value={env} onChange={(e) => setEnvironment(e.currentTarget.value)}>
                {environments.map((e) => <option key={e.key} value={e.key}>{e.name} ({e.key})</option>)}
              </select>
            )}
          </Field>
          <Field label="Flag">
            {(ctl) => (
              <select {...ctl} value={flagKey} onChange={(e) => setFlag(e.currentTarget.value)}>
                {flags.map((f) => <option key={f} value={f}>{f}</option>)}
              </select>
            )}
          </Field>
          <Field label="Context key" problems={at(problems, "key")}>
            {(ctl) => <input {...ctl} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
          </Field>
        </div>
        <Field label="Context attributes (JSON object)" problems={[...(attributesProblem === null ? [] : [attributesProblem]), ...at(problems, "attributes")]}>
          {(ctl) => <textarea {...ctl} class="mono" rows={5} value={attributes} onInput={(e) => setAttributes(e.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" disabled={attributesProblem !== null || flagKey === ""}>Evaluate</button>
        </div>
      </form>
      {result === null ? null : (
        <section class="card" aria-labelledby="result-title">
          <h2 id="result-title">Result</h2>
          <dl class="result">
            <dt>Value</dt>
            <dd><code>{JSON.stringify(result.value)}</code></dd>
            <dt>Variation</dt>
            <dd><code>{result.variationKey ?? "none"}</code></dd>
            <dt>Reason</dt>
            <dd>
              <code>{result.reason.kind}</code>
              {result.reason.ruleIndex === undefined ? null : <span> (rule {result.reason.ruleIndex + 1})</span>}
              {result.reason.error === undefined ? null : <span> {result.reason.error}</span>}
            </dd>
          </dl>
          <pre tabIndex={0} aria-label="The answer as the API gave it">{JSON.stringify(result, null, 2)}</pre>
        </section>
      )}
    </section>
  )
}
