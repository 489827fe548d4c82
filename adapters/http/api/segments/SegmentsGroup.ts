/** The declarations of segments: named groups of contexts shared by the rules of a project's flags. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import { CreateSegmentInput, PatchSegmentInput, Segment } from "../../../../src/domain/definitions/Segment.js"
import { strict } from "../../shared/EvaluationRequests.js"
import * as Errors from "../../shared/Errors.js"
import { Created, dataOf, described, projectId, segmentKey } from "../Declaring.js"
import * as Examples from "../Examples.js"
import { ManagementAuth } from "../Security.js"

// The resource with its example: one instance, so every operation refers to one component.
const SegmentDoc = Segment.annotations({ examples: [Examples.segment] })

export class SegmentsGroup extends HttpApiGroup.make("segments")
  .add(described(
    HttpApiEndpoint.post("create")`/v1/projects/${projectId}/segments`
      .setPayload(strict(CreateSegmentInput).annotations({ examples: [Examples.createSegment] }))
      .addSuccess(Created(SegmentDoc))
      .addError(Errors.Conflict),
    "Create a segment",
    "A reusable group of contexts (included keys, excluded keys, and conditions) that rules reference with `in_segment`. 409 when the key is taken."
  ))
  .add(described(
    HttpApiEndpoint.get("list")`/v1/projects/${projectId}/segments`.addSuccess(dataOf(SegmentDoc)),
    "List segments",
    "Every segment of the project."
  ))
  .add(described(
    HttpApiEndpoint.get("get")`/v1/projects/${projectId}/segments/${segmentKey}`.addSuccess(SegmentDoc),
    "Get a segment",
    "One segment."
  ))
  .add(described(
    HttpApiEndpoint.patch("patch")`/v1/projects/${projectId}/segments/${segmentKey}`
      .setPayload(strict(PatchSegmentInput).annotations({ examples: [Examples.patchSegment] }))
      .addSuccess(SegmentDoc)
      .addError(Errors.Conflict),
    "Update a segment",
    "Changes the name, description, included or excluded keys, or conditions; send only what changes. A person's change to a segment that the targeting of a protected environment names is refused with 409 `change_request_required` naming the first such environment (a server key writes it directly, audited under its name)."
  ))
  .add(described(
    HttpApiEndpoint.del("remove")`/v1/projects/${projectId}/segments/${segmentKey}`.addSuccess(HttpApiSchema.NoContent)
      .addError(Errors.Conflict),
    "Delete a segment",
    "Deletes a segment no flag uses; 409 names the flags that still do. For a person, when a protected environment's targeting names it, the 409 is `change_request_required` naming the first such environment."
  ))
  .middleware(ManagementAuth)
  .addError(Errors.NotFound)
  .annotate(OpenApi.Description, "Segments: named groups of contexts shared by the rules of a project's flags.") {}
