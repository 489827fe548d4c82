import * as Schema from "effect/Schema"
import { documentName } from "../DocumentName.js"
import { Text } from "./Text.js"

/** `POST /v1/projects/{p}/environments/{to}/copy`: where from, and which flags (all when absent). */
export const CopyEnvironmentInput = Schema.Struct({
  from: Text,
  flags: Schema.optional(Schema.Array(Text).pipe(Schema.maxItems(1000)))
}).annotations(documentName("CopyEnvironmentInput"))
export type CopyEnvironmentInput = typeof CopyEnvironmentInput.Type
