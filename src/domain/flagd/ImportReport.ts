/**
 * What a flagd import answers (the command line's listing, the HTTP endpoint's body): per flag of
 * the file, imported (or would be, in a dry run), proposed as a change request (a person importing
 * into a protected environment), or refused and why.
 */
import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"

const Imported = Schema.Struct({
  key: Schema.String,
  result: Schema.Literal("imported", "would import", "proposed", "would propose").annotations({
    description: "`imported`: created, with its targeting in the environment; `proposed`: created, its targeting proposed in `changeRequests` (a person in a protected environment); `would ...`: the same in a dry run."
  }),
  rules: Schema.Number
})

const Refused = Schema.Struct({
  key: Schema.String,
  result: Schema.Literal("refused", "skipped").annotations({
    description: "`refused`: no faithful translation (or the project has the key), so nothing is imported; `skipped`: the same, left out under `skipUnsupported`."
  }),
  path: Schema.String.annotations({ description: "Where in the file, e.g. `flags.headerColor.targeting.if[0]`." }),
  reason: Schema.String
})

export const FlagOutcome = Schema.Union(Imported, Refused).annotations(documentName("FlagdFlagOutcome"))
export type FlagOutcome = typeof FlagOutcome.Type

/** A change request the import opened for the targeting a person may not write directly. */
export const ProposedChange = Schema.Struct({
  id: Schema.String,
  flagKeys: Schema.Array(Schema.String)
}).annotations(documentName("FlagdProposal"))
export type ProposedChange = typeof ProposedChange.Type

export const ImportReport = Schema.Struct({
  projectId: Schema.String,
  environment: Schema.String,
  written: Schema.Boolean.annotations({
    description: "Whether the flags marked imported or proposed were written (false for a dry run, or when a refusal stopped the import)."
  }),
  flags: Schema.Array(FlagOutcome),
  changeRequests: Schema.Array(ProposedChange).annotations({
    description: "The change requests opened for the flags' targeting (a person importing into a protected environment; 50 flags each); empty otherwise."
  })
}).annotations(documentName("FlagdImportReport"))
export type ImportReport = typeof ImportReport.Type
