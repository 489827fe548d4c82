/**
 * The people resources with their examples, one instance of each so that every operation refers to
 * one component: a user, and the signed-in person (a user with their memberships).
 */
import * as Schema from "effect/Schema"
import { documentName } from "../../../../src/domain/DocumentName.js"
import { User, UserWithMemberships } from "../../../../src/domain/people/User.js"
import * as Examples from "../Examples.js"

export const UserDoc = User.annotations({ examples: [Examples.edna] })
// Built from UserDoc (not the domain's UserWithMemberships, whose User has no example), so the one
// User component of the document carries its example.
export const SignedInDoc = Schema.Struct({ ...UserWithMemberships.fields, user: UserDoc }).annotations({ ...documentName("Me"), examples: [Examples.signedIn] })
