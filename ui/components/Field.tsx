/**
 * A labelled control with its hint and its problems: the label names the control, the hint and
 * the problems are tied to it with `aria-describedby`, and a control with problems is marked
 * `aria-invalid`. Every input of the dashboard goes through here (or a fieldset with a legend).
 */
import type { ComponentChildren, VNode } from "preact"
import { useId } from "preact/hooks"
import { messageWords } from "../lib/words.js"

export interface ControlProps {
  readonly id: string
  readonly "aria-describedby"?: string
  readonly "aria-invalid"?: boolean
}

/** The problems of a control or a group, each in people's words (lib/words.ts). */
export const Problems = ({ id, messages }: { id: string; messages: ReadonlyArray<string> }) =>
  messages.length === 0 ? null : (
    <ul class="problems" id={id}>
      {messages.map((m, i) => <li key={i}>{messageWords(m)}</li>)}
    </ul>
  )

export const describedBy = (...ids: ReadonlyArray<string | false | undefined>): string | undefined => {
  const present = ids.filter((i): i is string => typeof i === "string")
  return present.length === 0 ? undefined : present.join(" ")
}

export const Field = (props: {
  label: string
  hint?: string
  problems?: ReadonlyArray<string>
  class?: string
  children: (control: ControlProps) => VNode
}) => {
  const id = useId()
  const problems = props.problems ?? []
  const hintId = props.hint === undefined ? undefined : `${id}-hint`
  const problemsId = problems.length === 0 ? undefined : `${id}-problems`
  const by = describedBy(hintId, problemsId)
  const control: ControlProps = {
    id,
    ...(by === undefined ? {} : { "aria-describedby": by }),
    ...(problems.length === 0 ? {} : { "aria-invalid": true })
  }
  return (
    <div class={`field ${props.class ?? ""}`}>
      <label for={id}>{props.label}</label>
      {props.children(control)}
      {props.hint === undefined ? null : <small id={hintId}>{props.hint}</small>}
      {problemsId === undefined ? null : <Problems id={problemsId} messages={problems} />}
    </div>
  )
}

/** A group of controls under a legend, with the problems of the group. */
export const Group = (props: { legend: string; problems?: ReadonlyArray<string>; class?: string; children: ComponentChildren }) => {
  const id = useId()
  const problems = props.problems ?? []
  return (
    <fieldset class={props.class} aria-describedby={problems.length === 0 ? undefined : `${id}-problems`}>
      <legend>{props.legend}</legend>
      {props.children}
      <Problems id={`${id}-problems`} messages={problems} />
    </fieldset>
  )
}
