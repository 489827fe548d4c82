/** The declarations of a segment's key lists: `included` and `excluded`, up to a million keys each, managed apart from the segment. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { KeyListInfo, KeyListName, KeyLists, PatchKeysInput } from "../../../../src/domain/definitions/SegmentKeys.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { described, projectId, segmentKey } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

export const listName = HttpApiSchema.param("list", KeyListName)

// One instance of each, with its example, so every operation refers to one component.
const KeyListDoc = KeyListInfo.annotations({ examples: [Examples.keyList] })
const KeyListsDoc = Schema.Struct({ included: KeyListDoc, excluded: KeyListDoc }).annotations({
  ...KeyLists.ast.annotations,
  examples: [{ included: Examples.keyList, excluded: { list: "excluded", version: 0, count: 0, updatedAt: null } }]
})

const KeyListText = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "text/plain" }))

const UPLOAD_DESCRIPTION =
  "The keys, streamed: `text/plain` is one key a line (a trailing `\\r` dropped, blank lines skipped); `text/csv` is RFC 4180 with a header row, the keys read from the column named `key` (any case), else from the first. Duplicates count once in the list (but each counts toward the limit of the upload)."

/** The upload's body is read by its handler as a stream (no payload schema decodes it): declared here for the document. */
const declareUploadBody = (operation: Record<string, any>): Record<string, any> => ({
  ...operation,
  requestBody: {
    required: true,
    description: UPLOAD_DESCRIPTION,
    content: {
      "text/plain": { schema: { type: "string" }, example: "user-1\nuser-2\n" },
      "text/csv": { schema: { type: "string" }, example: "key,name\nuser-1,Ada\nuser-2,Edsger\n" }
    }
  }
})

export class SegmentKeysGroup extends HttpApiGroup.make("segmentKeys")
  .add(described(
    HttpApiEndpoint.get("lists")`/v1/projects/${projectId}/segments/${segmentKey}/keys`
      .addSuccess(KeyListsDoc),
    "Get a segment's key lists",
    "The version and size of the segment's `included` and `excluded` lists (version 0 for a list never written)."
  ))
  .add(described(
    HttpApiEndpoint.get("read")`/v1/projects/${projectId}/segments/${segmentKey}/keys/${listName}`.addSuccess(KeyListText.annotations({
      description: "The list's keys, one a line, streamed (each key once, in an order of the storage's choosing). `ETag` is the list's version (`\"3\"`), `Flagport-Key-Count` its size."
    })),
    "Download a key list",
    "Streams the list back as text, one key a line."
  ))
  .add(described(
    HttpApiEndpoint.put("replace")`/v1/projects/${projectId}/segments/${segmentKey}/keys/${listName}`
      .addSuccess(KeyListDoc)
      .addError(Errors.Conflict)
      .annotate(OpenApi.Transform, declareUploadBody),
    "Replace a key list",
    "Replaces the whole list by the keys of the body, streamed (up to 1,000,000 keys of at most 256 characters; the 1 MiB cap of JSON bodies does not apply). The keys are written as they arrive and take the list's place at once when the body ends; on any failure (a key too long, too many keys, text that is not CSV, the connection lost) the list stays as it was. 415 for another media type. A person's change to a segment that the targeting of a protected environment names is refused with 409 `change_request_required`."
  ))
  .add(described(
    HttpApiEndpoint.patch("change")`/v1/projects/${projectId}/segments/${segmentKey}/keys/${listName}`
      .setPayload(strict(PatchKeysInput).annotations({ examples: [Examples.patchKeys] }))
      .addSuccess(KeyListDoc)
      .addError(Errors.Conflict),
    "Add and remove keys",
    "Adds the keys of `add` and removes those of `remove` (at most 10,000 each; a key in both is removed), all or nothing; one more version. 400 when the list would hold more than 1,000,000 keys."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Segment key lists: `included` and `excluded` keys of a segment, up to 1,000,000 each.") {}
