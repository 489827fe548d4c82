/**
 * The evaluation playground: an environment, a flag and a context, evaluated by `POST /v1/explain`:
 * the result exactly as an application gets it from `GET /v1/flags/{flagKey}/eval` (value,
 * variation, reason), and the path the evaluator took to it (the trace).
 */
import { useState } from "preact/hooks"
import { ErrorSummary } from "../components/ErrorSummary.js"
import { ExplainTrace } from "../components/ExplainTrace.js"
import { Field } from "../components/Field.js"
import { Waiting } from "../components/Status.js"
import { projectPath, request } from "../lib/api.js"
import { useLoad } from "../lib/load.js"
import { at, fromError, NO_PROBLEMS, type Problems } from "../lib/problems.js"
import type { Environment, Explanation, Flag, List } from "../lib/types.js"

const loadChoices = async (projectId: string) => {
  const [environments, flags] = await Promise.all([
    request<List<Environment>>("GET", projectPath(projectId, "/environments")),
    request<List<Flag>>("GET", projectPath(projectId, "/flags"))
  ])
  return { environments: environments.data, flags: flags.data.map((f) => f.key) }
}

const Answer = ({ explained: { result, trace } }: { explained: Explanation }) => (
  <>
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
          {result.reason.prerequisiteKey === undefined ? null : <span> (prerequisite {result.reason.prerequisiteKey})</span>}
          {result.reason.error === undefined ? null : <span> {result.reason.error}</span>}
        </dd>
      </dl>
      <pre tabIndex={0} aria-label="The answer as the API gave it">{JSON.stringify(result, null, 2)}</pre>
    </section>
    <section class="card" aria-labelledby="trace-title">
      <h2 id="trace-title">Why</h2>
      <p class="muted">The steps the evaluator took, in order; it stops where the answer is decided.</p>
      <ExplainTrace trace={trace} result={result} />
    </section>
  </>
)

export const PlaygroundPage = ({ projectId }: { projectId: string }) => {
  const { loaded } = useLoad(() => loadChoices(projectId), [projectId])
  const [environment, setEnvironment] = useState("")
  const [flag, setFlag] = useState("")
  const [key, setKey] = useState("user-1")
  const [attributes, setAttributes] = useState("{}")
  const [explained, setExplained] = useState<Explanation | null>(null)
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
    const body = { environment: env, flagKey, projectId, context: { key, attributes: JSON.parse(attributes) as unknown } }
    try {
      setExplained(await request<Explanation>("POST", "/v1/explain", body))
      setProblems(NO_PROBLEMS)
    } catch (error) {
      setExplained(null)
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
          <Field label="Context key" problems={at(problems, "context.key")}>
            {(ctl) => <input {...ctl} value={key} onInput={(e) => setKey(e.currentTarget.value)} />}
          </Field>
        </div>
        <Field label="Context attributes (JSON object)" problems={[...(attributesProblem === null ? [] : [attributesProblem]), ...at(problems, "context.attributes")]}>
          {(ctl) => <textarea {...ctl} class="mono" rows={5} value={attributes} onInput={(e) => setAttributes(e.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" disabled={attributesProblem !== null || flagKey === ""}>Evaluate</button>
        </div>
      </form>
      {explained === null ? null : <Answer explained={explained} />}
    </section>
  )
}
