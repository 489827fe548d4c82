// Generated from docs/openapi.json by scripts/api-types.ts (npm run api-types): do not edit.
// The API's schemas as read-only types; ui/lib/types.ts names the ones the dashboard uses.
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A bug; the details are in the server log. */
        readonly InternalError: {
            readonly error: {
                /** @enum {string} */
                readonly code: "internal_error";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /** @description The database cannot be reached, or a bounded backlog is full; try again later. */
        readonly Unavailable: {
            readonly error: {
                /** @enum {string} */
                readonly code: "unavailable";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "id": "shop",
         *       "name": "Shop",
         *       "createdAt": "2026-11-23T09:00:00.000Z",
         *       "updatedAt": "2026-11-23T09:00:00.000Z"
         *     }
         */
        readonly Project: {
            /** @description a string matching the pattern ^[a-z0-9][a-z0-9_-]{0,62}$ */
            readonly id: string;
            readonly name: string;
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        /** @description The request is invalid; `details` lists every problem with its JSON path. */
        readonly BadRequest: {
            readonly error: {
                /** @enum {string} */
                readonly code: "invalid_request";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /** @description Missing or malformed Authorization header, or an unknown key. */
        readonly Unauthorized: {
            readonly error: {
                /** @enum {string} */
                readonly code: "unauthorized";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /** @description The key may not do this. */
        readonly Forbidden: {
            readonly error: {
                /** @enum {string} */
                readonly code: "forbidden";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /** @description The body is over 1 MiB. */
        readonly PayloadTooLarge: {
            readonly error: {
                /** @enum {string} */
                readonly code: "payload_too_large";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /** @description A body without Content-Type: application/json. */
        readonly UnsupportedMediaType: {
            readonly error: {
                /** @enum {string} */
                readonly code: "unsupported_media_type";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "id": "shop",
         *       "name": "Shop"
         *     }
         */
        readonly CreateProjectInput: {
            /** @description a string matching the pattern ^[a-z0-9][a-z0-9_-]{0,62}$ */
            readonly id: string;
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name: string;
        };
        /** @description `conflict`: a duplicate key, a reference still in use, or a change request's flags moved on. `change_request_required`: a person's direct write to a protected environment, which needs an approved change request. */
        readonly Conflict: {
            readonly error: {
                /** @enum {string} */
                readonly code: "conflict" | "change_request_required";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "id": "01a2089b-5a40-7da3-ac9e-8bba6013ce7b",
         *       "projectId": "shop",
         *       "key": "production",
         *       "name": "Production",
         *       "clientConfig": "full",
         *       "protected": false,
         *       "requiredApprovals": 1,
         *       "createdAt": "2026-11-23T09:00:01.000Z"
         *     }
         */
        readonly Environment: {
            readonly id: string;
            readonly projectId: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            readonly name: string;
            /**
             * @description What client keys may read: `full` (default) also `GET /v1/config`, rules and segments included; `evaluated` only evaluated answers (evaluate, OFREP, stream): `GET /v1/config` and `POST /v1/explain` answer them 403. Server keys always get the configuration.
             * @enum {string}
             */
            readonly clientConfig: "full" | "evaluated";
            /** @description People change this environment's targeting, schedules and copies into it only through an approved change request (409 `change_request_required` otherwise), and may not delete a flag, rewrite or remove a variation, or change a segment its targeting names; server keys keep writing directly. */
            readonly protected: boolean;
            /**
             * between(1, 5)
             * @description Approvals a change request to this environment needs before it can be applied (1-5).
             */
            readonly requiredApprovals: components["schemas"]["Int"];
            readonly createdAt: string;
        };
        /**
         * int
         * @description an integer
         */
        readonly Int: number;
        /** @description Unknown resource or route. */
        readonly NotFound: {
            readonly error: {
                /** @enum {string} */
                readonly code: "not_found";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "key": "production",
         *       "name": "Production"
         *     }
         */
        readonly CreateEnvironmentInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name: string;
        };
        /**
         * @example {
         *       "clientConfig": "evaluated"
         *     }
         * @example {
         *       "protected": true,
         *       "requiredApprovals": 2
         *     }
         */
        readonly UpdateEnvironmentInput: {
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name?: string;
            /**
             * @description What client keys may read: `full` (default) also `GET /v1/config`, rules and segments included; `evaluated` only evaluated answers (evaluate, OFREP, stream): `GET /v1/config` and `POST /v1/explain` answer them 403. Server keys always get the configuration.
             * @enum {string}
             */
            readonly clientConfig?: "full" | "evaluated";
            readonly protected?: boolean;
            /**
             * between(1, 5)
             * @description Approvals a change request to this environment needs before it can be applied (1-5).
             */
            readonly requiredApprovals?: components["schemas"]["Int"];
        };
        /**
         * @example {
         *       "from": "production",
         *       "flags": [
         *         "new-checkout"
         *       ]
         *     }
         */
        readonly CopyEnvironmentInput: {
            /** @description text without the NUL character (U+0000) */
            readonly from: string;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            readonly flags?: readonly string[];
        };
        /**
         * @description The keys of the flags whose configuration changed.
         * @example {
         *       "data": [
         *         "new-checkout"
         *       ]
         *     }
         */
        readonly CopiedFlags: {
            readonly data: readonly string[];
        };
        /** @description `If-Match` names a version that is not current; `details` names the current one (also the `ETag` of a fresh GET). */
        readonly PreconditionFailed: {
            readonly error: {
                /** @enum {string} */
                readonly code: "precondition_failed";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "key": "new-checkout",
         *       "name": "New checkout",
         *       "description": "The redesigned checkout flow",
         *       "type": "boolean",
         *       "variations": [
         *         {
         *           "key": "on",
         *           "value": true
         *         },
         *         {
         *           "key": "off",
         *           "value": false
         *         }
         *       ]
         *     }
         */
        readonly CreateFlagInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /** @description text without the NUL character (U+0000) */
            readonly name?: string;
            readonly description?: string | null;
            /** @enum {string} */
            readonly type: "boolean" | "string" | "number" | "json";
            readonly variations: readonly components["schemas"]["Variation"][];
        };
        readonly Variation: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /** unknown */
            readonly value: unknown;
            /** @description text without the NUL character (U+0000) */
            readonly name?: string;
        };
        /**
         * @example {
         *       "id": "01a2089b-5a6a-7823-8988-666f950bf066",
         *       "key": "new-checkout",
         *       "name": "New checkout flow",
         *       "description": "The one-page checkout",
         *       "type": "boolean",
         *       "variations": [
         *         {
         *           "key": "on",
         *           "value": true
         *         },
         *         {
         *           "key": "off",
         *           "value": false
         *         }
         *       ],
         *       "configs": [
         *         {
         *           "environmentKey": "production",
         *           "enabled": true,
         *           "defaultVariationKey": "off",
         *           "offVariationKey": "off",
         *           "prerequisites": [],
         *           "rules": [
         *             {
         *               "id": "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
         *               "name": "Beta users",
         *               "conditions": [
         *                 {
         *                   "attribute": "plan",
         *                   "operator": "in",
         *                   "values": [
         *                     "beta"
         *                   ]
         *                 }
         *               ],
         *               "variationKey": "on"
         *             },
         *             {
         *               "id": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *               "name": "10% of everyone else",
         *               "conditions": [],
         *               "rollout": {
         *                 "variations": [
         *                   {
         *                     "variationKey": "on",
         *                     "weight": 10000
         *                   },
         *                   {
         *                     "variationKey": "off",
         *                     "weight": 90000
         *                   }
         *                 ]
         *               }
         *             }
         *           ],
         *           "version": 3,
         *           "lastEvaluatedAt": null
         *         }
         *       ],
         *       "createdAt": "2026-11-23T09:00:02.000Z",
         *       "updatedAt": "2026-11-23T09:05:00.000Z",
         *       "version": 3,
         *       "stale": false
         *     }
         */
        readonly FlagWithUsage: {
            readonly id: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            readonly name: string;
            readonly description: string | null;
            /** @enum {string} */
            readonly type: "boolean" | "string" | "number" | "json";
            readonly variations: readonly components["schemas"]["Variation"][];
            readonly configs: readonly components["schemas"]["TargetingWithUsage"][];
            readonly createdAt: string;
            readonly updatedAt: string;
            readonly version: number;
            /** @description Not evaluated in any environment for FLAGPORT_STALE_AFTER_DAYS (default 30) days, and created longer ago than that. */
            readonly stale: boolean;
        };
        readonly TargetingWithUsage: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environmentKey: string;
            readonly enabled: boolean;
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            readonly rules: readonly components["schemas"]["Rule"][];
            /** @description This configuration's version: the flag's version as of the last change to this environment's targeting or to the flag's variations (a change elsewhere leaves it). Its `ETag` (GET .../targeting?environment=) is `"<environmentKey>:<version>"`; send that in `If-Match` on PUT .../targeting to conflict only with changes to this environment. */
            readonly version: number;
            /** @description When the flag was last evaluated in this environment (server-side or reported by an SDK), including as a prerequisite of a flag evaluated there; null: never. */
            readonly lastEvaluatedAt: string | null;
        };
        readonly Prerequisite: {
            readonly flagKey: string;
            readonly variationKey: string;
        };
        /** @description Exactly one of `variationKey` and `rollout` is set. */
        readonly Rule: {
            readonly id: string;
            readonly name?: string;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            readonly variationKey?: string;
            readonly rollout?: components["schemas"]["Rollout"];
        } & (unknown | unknown);
        readonly Condition: {
            /** @description text without the NUL character (U+0000) */
            readonly attribute?: string;
            /** @enum {string} */
            readonly operator: "in" | "notIn" | "contains" | "startsWith" | "endsWith" | "matches" | "lt" | "lte" | "gt" | "gte" | "before" | "after" | "semverEq" | "semverLt" | "semverGt" | "exists" | "inSegment" | "notInSegment";
            readonly values: readonly unknown[];
            readonly negate?: boolean;
        };
        /** @description A group: it matches when every condition of at least one of its lists matches. 1 to 20 lists of 1 to 20 conditions each; a list holds conditions, not groups, and a group has no `negate`. */
        readonly ConditionGroup: {
            readonly anyOf: readonly (readonly components["schemas"]["Condition"][])[];
        };
        readonly Rollout: {
            readonly bucketBy?: string;
            readonly seed?: string;
            readonly variations: readonly components["schemas"]["WeightedVariation"][];
        };
        readonly WeightedVariation: {
            readonly variationKey: string;
            readonly weight: number;
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "01a2089b-5a6a-7823-8988-666f950bf066",
         *           "key": "new-checkout",
         *           "name": "New checkout flow",
         *           "description": "The one-page checkout",
         *           "type": "boolean",
         *           "variations": [
         *             {
         *               "key": "on",
         *               "value": true
         *             },
         *             {
         *               "key": "off",
         *               "value": false
         *             }
         *           ],
         *           "configs": [
         *             {
         *               "environmentKey": "production",
         *               "enabled": true,
         *               "defaultVariationKey": "off",
         *               "offVariationKey": "off",
         *               "prerequisites": [],
         *               "rules": [
         *                 {
         *                   "id": "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
         *                   "name": "Beta users",
         *                   "conditions": [
         *                     {
         *                       "attribute": "plan",
         *                       "operator": "in",
         *                       "values": [
         *                         "beta"
         *                       ]
         *                     }
         *                   ],
         *                   "variationKey": "on"
         *                 },
         *                 {
         *                   "id": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *                   "name": "10% of everyone else",
         *                   "conditions": [],
         *                   "rollout": {
         *                     "variations": [
         *                       {
         *                         "variationKey": "on",
         *                         "weight": 10000
         *                       },
         *                       {
         *                         "variationKey": "off",
         *                         "weight": 90000
         *                       }
         *                     ]
         *                   }
         *                 }
         *               ],
         *               "version": 3,
         *               "lastEvaluatedAt": null
         *             }
         *           ],
         *           "createdAt": "2026-11-23T09:00:02.000Z",
         *           "updatedAt": "2026-11-23T09:05:00.000Z",
         *           "version": 3,
         *           "stale": false
         *         }
         *       ],
         *       "nextCursor": "ZmxhZ3M6bmV3LWNoZWNrb3V0"
         *     }
         */
        readonly FlagListPage: {
            readonly data: readonly components["schemas"]["FlagWithUsage"][];
            /** @description Where the next page starts: send it as `cursor`. Null on the last page, and when the list was not paged (neither `limit` nor `cursor`). */
            readonly nextCursor: string | null;
        };
        /**
         * @example {
         *       "name": "New checkout flow",
         *       "description": "The one-page checkout"
         *     }
         */
        readonly PatchFlagInput: {
            /** @description text without the NUL character (U+0000) */
            readonly name?: string;
            readonly description?: string | null;
            readonly variations?: readonly components["schemas"]["Variation"][];
        };
        /**
         * @example {
         *       "environment": "production",
         *       "enabled": true,
         *       "defaultVariationKey": "off",
         *       "offVariationKey": "off",
         *       "rules": [
         *         {
         *           "name": "Beta users",
         *           "conditions": [
         *             {
         *               "attribute": "plan",
         *               "operator": "in",
         *               "values": [
         *                 "beta"
         *               ]
         *             }
         *           ],
         *           "variationKey": "on"
         *         },
         *         {
         *           "name": "10% of everyone else",
         *           "conditions": [],
         *           "rollout": {
         *             "variations": [
         *               {
         *                 "variationKey": "on",
         *                 "weight": 10000
         *               },
         *               {
         *                 "variationKey": "off",
         *                 "weight": 90000
         *               }
         *             ]
         *           }
         *         }
         *       ]
         *     }
         */
        readonly TargetingInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            readonly enabled: boolean;
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            readonly rules: readonly components["schemas"]["RuleInput"][];
        };
        /** @description Exactly one of `variationKey` and `rollout` is set. */
        readonly RuleInput: {
            /** @description text without the NUL character (U+0000) */
            readonly id?: string;
            /** @description text without the NUL character (U+0000) */
            readonly name?: string;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            readonly variationKey?: string;
            readonly rollout?: components["schemas"]["Rollout"];
        } & (unknown | unknown);
        /**
         * @example {
         *       "key": "staff",
         *       "name": "Staff",
         *       "description": "Everyone with a company address",
         *       "conditions": [
         *         {
         *           "attribute": "email",
         *           "operator": "endsWith",
         *           "values": [
         *             "@shop.example"
         *           ]
         *         }
         *       ]
         *     }
         */
        readonly CreateSegmentInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name: string;
            readonly description?: string | null;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            /** @description The context attribute the segment's key lists match (`key`, the context key, when not given); at most 256 characters. */
            readonly keyAttribute?: string;
        };
        /**
         * @example {
         *       "id": "01a2089b-5ae4-7258-bdc4-ec555d17c272",
         *       "projectId": "shop",
         *       "key": "staff",
         *       "name": "Staff",
         *       "description": "Employees and contractors",
         *       "conditions": [
         *         {
         *           "attribute": "email",
         *           "operator": "endsWith",
         *           "values": [
         *             "@shop.example"
         *           ]
         *         }
         *       ],
         *       "keyAttribute": "key",
         *       "createdAt": "2026-11-23T09:06:00.000Z",
         *       "updatedAt": "2026-11-23T09:07:00.000Z"
         *     }
         */
        readonly Segment: {
            readonly id: string;
            readonly projectId: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            readonly name: string;
            readonly description: string | null;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            /** @description The context attribute the segment's key lists match: `key` (the context key, the default) or the name of an attribute of `context.attributes` (an account id, a device id). */
            readonly keyAttribute: string;
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        /**
         * @example {
         *       "description": "Employees and contractors"
         *     }
         */
        readonly PatchSegmentInput: {
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name?: string;
            readonly description?: string | null;
            readonly conditions?: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            /** @description The context attribute the segment's key lists match (`key`, the context key, when not given); at most 256 characters. */
            readonly keyAttribute?: string;
        };
        /**
         * @example {
         *       "included": {
         *         "list": "included",
         *         "version": 2,
         *         "count": 2,
         *         "updatedAt": "2026-11-23T09:08:00.000Z"
         *       },
         *       "excluded": {
         *         "list": "excluded",
         *         "version": 0,
         *         "count": 0,
         *         "updatedAt": null
         *       }
         *     }
         */
        readonly SegmentKeyLists: {
            readonly included: components["schemas"]["SegmentKeyList"];
            readonly excluded: components["schemas"]["SegmentKeyList"];
        };
        /**
         * @example {
         *       "list": "included",
         *       "version": 2,
         *       "count": 2,
         *       "updatedAt": "2026-11-23T09:08:00.000Z"
         *     }
         */
        readonly SegmentKeyList: {
            /**
             * @description `included`: these keys are in the segment whatever its conditions say; `excluded`: these keys never are.
             * @enum {string}
             */
            readonly list: "included" | "excluded";
            /**
             * int
             * @description 0 for a list never written; each replace or change adds one.
             */
            readonly version: number;
            /**
             * int
             * @description How many distinct keys the list holds.
             */
            readonly count: number;
            /** @description When the list was last written; null when never. */
            readonly updatedAt: string | null;
        };
        /**
         * @example {
         *       "add": [
         *         "user-3"
         *       ],
         *       "remove": [
         *         "user-1"
         *       ]
         *     }
         */
        readonly PatchSegmentKeysInput: {
            readonly add?: readonly string[];
            readonly remove?: readonly string[];
        };
        /**
         * @example {
         *       "url": "https://hooks.shop.example/flagport",
         *       "events": [
         *         "flag.updated",
         *         "targeting.updated"
         *       ],
         *       "secret": "a-long-random-secret"
         *     }
         */
        readonly CreateWebhookInput: {
            /** @description text without the NUL character (U+0000) */
            readonly url: string;
            /**
             * minItems(1)
             * @description an array of at least 1 item(s)
             */
            readonly events: readonly ("flag.created" | "flag.updated" | "flag.deleted" | "targeting.updated" | "change_request.opened" | "change_request.approved" | "change_request.rejected" | "change_request.applied" | "experiment.started" | "experiment.stopped" | "release_plan.started" | "release_plan.advanced" | "release_plan.paused" | "release_plan.harmed" | "release_plan.completed" | "release_plan.cancelled")[];
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            readonly secret?: string;
            readonly enabled?: boolean;
        };
        /**
         * @example {
         *       "id": "01a2089b-5b33-78af-83b2-a4f59a6ea1e0",
         *       "projectId": "shop",
         *       "url": "https://hooks.shop.example/flagport",
         *       "events": [
         *         "flag.updated",
         *         "targeting.updated"
         *       ],
         *       "enabled": true,
         *       "hasSecret": true,
         *       "createdAt": "2026-11-23T09:08:00.000Z",
         *       "updatedAt": "2026-11-23T09:08:00.000Z"
         *     }
         */
        readonly Webhook: {
            readonly id: string;
            readonly projectId: string;
            readonly url: string;
            readonly events: readonly ("flag.created" | "flag.updated" | "flag.deleted" | "targeting.updated" | "change_request.opened" | "change_request.approved" | "change_request.rejected" | "change_request.applied" | "experiment.started" | "experiment.stopped" | "release_plan.started" | "release_plan.advanced" | "release_plan.paused" | "release_plan.harmed" | "release_plan.completed" | "release_plan.cancelled")[];
            readonly enabled: boolean;
            readonly hasSecret: boolean;
            readonly previousSecretExpiresAt?: string;
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        /**
         * @example {
         *       "enabled": false
         *     }
         */
        readonly PatchWebhookInput: {
            /** @description text without the NUL character (U+0000) */
            readonly url?: string;
            /**
             * minItems(1)
             * @description an array of at least 1 item(s)
             */
            readonly events?: readonly ("flag.created" | "flag.updated" | "flag.deleted" | "targeting.updated" | "change_request.opened" | "change_request.approved" | "change_request.rejected" | "change_request.applied" | "experiment.started" | "experiment.stopped" | "release_plan.started" | "release_plan.advanced" | "release_plan.paused" | "release_plan.harmed" | "release_plan.completed" | "release_plan.cancelled")[];
            readonly secret?: string | null;
            readonly enabled?: boolean;
        };
        readonly Delivery: {
            readonly id: string;
            readonly webhookId: string;
            readonly eventId: string;
            /** @enum {string} */
            readonly eventType: "flag.created" | "flag.updated" | "flag.deleted" | "targeting.updated" | "change_request.opened" | "change_request.approved" | "change_request.rejected" | "change_request.applied" | "experiment.started" | "experiment.stopped" | "release_plan.started" | "release_plan.advanced" | "release_plan.paused" | "release_plan.harmed" | "release_plan.completed" | "release_plan.cancelled";
            /** @enum {string} */
            readonly status: "pending" | "succeeded" | "failed";
            readonly nextAttemptAt: string | null;
            readonly redeliveryOf: string | null;
            readonly attempts: readonly components["schemas"]["DeliveryAttempt"][];
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        readonly DeliveryAttempt: {
            readonly attemptedAt: string;
            readonly statusCode: number | null;
            readonly durationMs: number;
            readonly error: string | null;
            readonly nextAttemptAt: string | null;
        };
        /**
         * @example {
         *       "id": "key_01JDQ7Z6X5V4T3S2R1Q0P9N8M7",
         *       "type": "client",
         *       "projectId": "shop",
         *       "environment": null,
         *       "name": "Storefront",
         *       "prefix": "cli_Xy7Q",
         *       "createdAt": "2026-11-23T09:00:05.000Z",
         *       "createdBy": null,
         *       "lastUsedAt": null,
         *       "revokedAt": null
         *     }
         */
        readonly ApiKey: {
            readonly id: string;
            /** @enum {string} */
            readonly type: "server" | "client";
            readonly projectId: string | null;
            readonly environment: string | null;
            readonly name: string;
            readonly prefix: string;
            readonly createdAt: string;
            readonly createdBy: string | null;
            readonly lastUsedAt: string | null;
            readonly revokedAt: string | null;
        };
        /**
         * @example {
         *       "type": "client",
         *       "name": "Storefront"
         *     }
         */
        readonly CreateProjectKeyInput: {
            /** @enum {string} */
            readonly type: "server" | "client";
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name: string;
            readonly environment?: string | null;
        };
        /**
         * @example {
         *       "id": "key_01JDQ7Z6X5V4T3S2R1Q0P9N8M7",
         *       "type": "client",
         *       "projectId": "shop",
         *       "environment": null,
         *       "name": "Storefront",
         *       "prefix": "cli_Xy7Q",
         *       "createdAt": "2026-11-23T09:00:05.000Z",
         *       "createdBy": null,
         *       "lastUsedAt": null,
         *       "revokedAt": null,
         *       "key": "cli_Xy7Q2mJ8vN4bR6tK1pL9sD3fG5hW0zA"
         *     }
         */
        readonly CreatedApiKey: {
            readonly id: string;
            /** @enum {string} */
            readonly type: "server" | "client";
            readonly projectId: string | null;
            readonly environment: string | null;
            readonly name: string;
            readonly prefix: string;
            readonly createdAt: string;
            readonly createdBy: string | null;
            readonly lastUsedAt: string | null;
            readonly revokedAt: string | null;
            readonly key: string;
        };
        /**
         * @example {
         *       "environment": "production",
         *       "at": "2027-03-01T09:00:00Z",
         *       "targeting": {
         *         "enabled": true,
         *         "defaultVariationKey": "on",
         *         "offVariationKey": "off",
         *         "rules": []
         *       }
         *     }
         */
        readonly CreateScheduleInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            readonly at: string;
            readonly targeting: components["schemas"]["ScheduledTargeting"];
        };
        readonly ScheduledTargeting: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment?: string;
            readonly enabled: boolean;
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly rules: readonly components["schemas"]["RuleInput"][];
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
        };
        /**
         * @example {
         *       "id": "01a2089b-6c44-7f10-9d2e-3b8c1f0a4d55",
         *       "flagKey": "new-checkout",
         *       "environment": "production",
         *       "at": "2027-03-01T09:00:00.000Z",
         *       "targeting": {
         *         "enabled": true,
         *         "defaultVariationKey": "on",
         *         "offVariationKey": "off",
         *         "rules": []
         *       },
         *       "status": "pending",
         *       "createdAt": "2026-11-23T09:10:00.000Z",
         *       "actor": {
         *         "type": "key",
         *         "keyId": "01a2089b-4a21-7c3e-8b5f-6d7e8f9a0b1c",
         *         "keyName": "Release manager"
         *       }
         *     }
         */
        readonly Schedule: {
            readonly id: string;
            readonly flagKey: string;
            readonly environment: string;
            readonly at: string;
            readonly targeting: {
                readonly enabled: boolean;
                readonly defaultVariationKey: string;
                readonly offVariationKey: string;
                readonly rules: readonly components["schemas"]["RuleInput"][];
                readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            };
            /** @enum {string} */
            readonly status: "pending" | "applied" | "failed" | "cancelled";
            readonly reason?: string;
            readonly createdAt: string;
            readonly actor: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
        };
        /**
         * @example {
         *       "title": "Turn the new checkout on in production",
         *       "description": "Tested in development since Monday",
         *       "environment": "production",
         *       "changes": [
         *         {
         *           "flagKey": "new-checkout",
         *           "targeting": {
         *             "enabled": true,
         *             "defaultVariationKey": "on",
         *             "offVariationKey": "off",
         *             "rules": []
         *           }
         *         }
         *       ]
         *     }
         */
        readonly CreateChangeRequestInput: {
            /**
             * maxLength(200)
             * @description a string matching the pattern \S
             */
            readonly title: string & unknown;
            /**
             * maxLength(4000)
             * @description a string at most 4000 character(s) long
             */
            readonly description?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            /**
             * maxItems(50)
             * @description an array of at most 50 item(s)
             */
            readonly changes?: readonly components["schemas"]["ChangeInput"][];
            /**
             * maxItems(10)
             * @description an array of at most 10 item(s)
             */
            readonly releasePlans?: readonly components["schemas"]["ReleasePlanChangeInput"][];
            readonly applyAt?: string;
        };
        readonly ChangeInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            readonly targeting: components["schemas"]["ScheduledTargeting"];
        };
        readonly ReleasePlanChangeInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /**
             * maxLength(200)
             * @description a string at most 200 character(s) long
             */
            readonly planId: string;
            /** @enum {string} */
            readonly action: "start" | "resume";
        };
        /**
         * @example {
         *       "id": "01a2089b-7d55-7a21-8e3f-4c9d2a1b5e66",
         *       "projectId": "shop",
         *       "environment": "production",
         *       "title": "Turn the new checkout on in production",
         *       "description": "Tested in development since Monday",
         *       "status": "open",
         *       "author": {
         *         "type": "user",
         *         "userId": "01a2089b-3b10-7b2d-9a4e-5c6d7e8f9a0b",
         *         "email": "edna@example.com"
         *       },
         *       "createdAt": "2026-11-23T09:20:00.000Z",
         *       "updatedAt": "2026-11-23T09:20:00.000Z",
         *       "changes": [
         *         {
         *           "flagKey": "new-checkout",
         *           "baseVersion": 3,
         *           "before": {
         *             "enabled": false,
         *             "defaultVariationKey": "on",
         *             "offVariationKey": "off",
         *             "prerequisites": [],
         *             "rules": []
         *           },
         *           "after": {
         *             "enabled": true,
         *             "defaultVariationKey": "off",
         *             "offVariationKey": "off",
         *             "rules": [
         *               {
         *                 "name": "Beta testers",
         *                 "conditions": [
         *                   {
         *                     "operator": "inSegment",
         *                     "values": [
         *                       "beta-testers"
         *                     ]
         *                   }
         *                 ],
         *                 "variationKey": "on"
         *               }
         *             ]
         *           }
         *         }
         *       ],
         *       "releasePlans": [],
         *       "segments": [
         *         {
         *           "key": "beta-testers",
         *           "name": "Beta testers",
         *           "conditions": [
         *             {
         *               "attribute": "email",
         *               "operator": "endsWith",
         *               "values": [
         *                 "@example.com"
         *               ]
         *             }
         *           ],
         *           "updatedAt": "2026-11-20T16:05:00.000Z"
         *         }
         *       ],
         *       "approvals": [],
         *       "requiredApprovals": 1,
         *       "applyAt": null,
         *       "rejection": null,
         *       "appliedAt": null,
         *       "appliedBy": null,
         *       "failure": null,
         *       "countingApprovals": 0
         *     }
         */
        readonly ChangeRequest: {
            readonly id: string;
            readonly projectId: string;
            readonly environment: string;
            readonly title: string;
            readonly description: string | null;
            /** @enum {string} */
            readonly status: "open" | "approved" | "rejected" | "cancelled" | "applied";
            readonly author: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
            readonly createdAt: string;
            readonly updatedAt: string;
            readonly changes: readonly components["schemas"]["Change"][];
            /** @description The release plans the request starts (or resumes) when applied, after its targeting changes: each pinned as it was when the request was opened or its plans last updated (`baseVersion`, `plan`). The apply is refused (409, as for a flag that moved on) when a plan changed since. Empty for a request of targeting changes only. */
            readonly releasePlans: readonly components["schemas"]["ReleasePlanChange"][];
            /** @description The segments the changes' rules name, pinned as they were when the request was opened or its changes last updated (key, name, conditions, updatedAt): what an approver approves along with the diff. The apply is refused (409, as for a flag that moved on) when one is gone or changed since. */
            readonly segments: readonly components["schemas"]["ChangeSegment"][];
            readonly approvals: readonly components["schemas"]["CountedApproval"][];
            readonly requiredApprovals: number;
            readonly applyAt: string | null;
            readonly rejection: components["schemas"]["Approval"] | null;
            readonly appliedAt: string | null;
            readonly appliedBy: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            } | null;
            readonly failure: string | null;
            /** @description How many of `approvals` count now (`counts`); an apply needs at least `requiredApprovals`. An `approved` request with fewer is not ready: its apply answers 409 until others approve it. */
            readonly countingApprovals: number;
        };
        readonly Change: {
            readonly flagKey: string;
            readonly baseVersion: number;
            readonly before: components["schemas"]["ChangeTargeting"] | null;
            readonly after: components["schemas"]["ChangeTargeting"];
        };
        readonly ChangeTargeting: {
            readonly enabled: boolean;
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            readonly rules: readonly components["schemas"]["RuleInput"][];
        };
        readonly ReleasePlanChange: {
            readonly flagKey: string;
            readonly planId: string;
            /** @enum {string} */
            readonly action: "start" | "resume";
            readonly baseVersion: number;
            readonly plan: components["schemas"]["PinnedReleasePlan"];
        };
        /** @description The release plan as it was when the request was opened or its plans last updated: what the approvers approve. */
        readonly PinnedReleasePlan: {
            readonly id: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            readonly ruleId: string;
            readonly variationKey: string;
            readonly steps: readonly components["schemas"]["ReleasePlanStep"][];
            readonly guardrails: readonly components["schemas"]["Metric"][];
            /** @enum {string} */
            readonly onHarm: "pause" | "rollback";
            readonly alpha: number;
            /** @enum {string} */
            readonly status: "draft" | "running" | "paused" | "harmed" | "completed" | "cancelled";
            readonly currentStep: number | null;
            readonly nextStepAt: string | null;
            readonly pausedBy: ("manual" | "targetingChanged" | "stepFailed") | null;
            readonly failure: string | null;
            readonly harm: components["schemas"]["ReleasePlanHarm"] | null;
            readonly baseline: readonly components["schemas"]["WeightedVariation"][] | null;
            readonly startedBy: components["schemas"]["ReleasePlanStarter"] | null;
            readonly startedAt: string | null;
            readonly completedAt: string | null;
            readonly version: number;
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        readonly ReleasePlanStep: {
            readonly weight: number;
            readonly holdMinutes: number;
        };
        readonly Metric: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            readonly event: string;
            /** @enum {string} */
            readonly kind: "conversion" | "mean";
            /** @enum {string} */
            readonly goal: "increase" | "decrease";
            /** @enum {string} */
            readonly role: "primary" | "secondary" | "guardrail";
            readonly windowHours?: number;
        };
        readonly ReleasePlanHarm: {
            readonly at: string;
            /** @enum {string} */
            readonly action: "paused" | "rolledBack";
            readonly weight: number;
            readonly check: components["schemas"]["GuardrailCheck"];
        };
        readonly GuardrailCheck: {
            /** @enum {string} */
            readonly outcome: "ok" | "harmed";
            readonly guardrails: readonly components["schemas"]["GuardrailFigures"][];
            readonly minimumUnits: number;
        };
        readonly GuardrailFigures: {
            readonly metricKey: string;
            /** @enum {string} */
            readonly goal: "increase" | "decrease";
            readonly treatment: {
                readonly units: number;
                readonly mean: number;
            };
            readonly control: {
                readonly units: number;
                readonly mean: number;
            };
            readonly absolute: {
                readonly estimate: number;
                readonly ci: readonly [
                    number,
                    number
                ] | null;
            } | null;
            readonly relative: {
                readonly estimate: number;
                readonly ci: readonly [
                    number,
                    number
                ] | null;
            } | null;
            readonly pValue: number | null;
            readonly alpha: number;
            readonly notEnoughData: boolean;
            readonly harmed: boolean;
        };
        readonly ReleasePlanStarter: {
            /** @enum {string} */
            readonly type: "key" | "cli" | "schedule" | "user";
            readonly keyId?: string;
            readonly keyName?: string;
            readonly userId?: string;
            readonly email?: string;
        };
        readonly ChangeSegment: {
            readonly key: string;
            readonly name: string;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            readonly updatedAt: string;
        };
        readonly CountedApproval: {
            readonly by: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
            readonly at: string;
            readonly comment: string | null;
            /** @description Whether this approval counts now: its author may still approve in the project (a project admin or a global admin, not disabled) and is a person (an approval a key gave before keys were refused never counts). Judged each time the request is read, by the rule the apply uses. */
            readonly counts: boolean;
            /** @description Why it no longer counts (null while it counts): `demoted` (the approver's role here no longer approves, e.g. now an editor), `removed` (no longer a member, or gone), `disabled`, `revoked` (the approving key, since revoked) or `key` (a key gave it, before keys were refused the approve: approvals are people's). */
            readonly notCountingReason: components["schemas"]["ApprovalNotCountingReason"] | null;
        };
        /** @enum {string} */
        readonly ApprovalNotCountingReason: "demoted" | "removed" | "disabled" | "revoked" | "key";
        readonly Approval: {
            readonly by: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
            readonly at: string;
            readonly comment: string | null;
        };
        /**
         * @example {
         *       "title": "Turn the new checkout on in production, off by default",
         *       "changes": [
         *         {
         *           "flagKey": "new-checkout",
         *           "targeting": {
         *             "enabled": true,
         *             "defaultVariationKey": "off",
         *             "offVariationKey": "off",
         *             "rules": []
         *           }
         *         }
         *       ]
         *     }
         */
        readonly UpdateChangeRequestInput: {
            /**
             * maxLength(200)
             * @description a string matching the pattern \S
             */
            readonly title?: string & unknown;
            readonly description?: string | null;
            /**
             * maxItems(50)
             * @description an array of at most 50 item(s)
             */
            readonly changes?: readonly components["schemas"]["ChangeInput"][];
            /**
             * maxItems(10)
             * @description an array of at most 10 item(s)
             */
            readonly releasePlans?: readonly components["schemas"]["ReleasePlanChangeInput"][];
            readonly applyAt?: string | null;
        };
        /**
         * @example {
         *       "comment": "Checked with the support team"
         *     }
         */
        readonly ApproveChangeRequestInput: {
            /**
             * maxLength(4000)
             * @description a string at most 4000 character(s) long
             */
            readonly comment?: string;
        };
        /**
         * @example {
         *       "comment": "Not before the holiday sale"
         *     }
         */
        readonly RejectChangeRequestInput: {
            /**
             * maxLength(4000)
             * @description a string matching the pattern \S
             */
            readonly comment: string & unknown;
        };
        /**
         * @example {
         *       "id": "01a2089b-7d55-7e21-8c3f-4a9d2e1b0c66",
         *       "key": "checkout-redesign",
         *       "name": "Checkout redesign",
         *       "hypothesis": "The one-page checkout converts more visitors into buyers",
         *       "flagKey": "new-checkout",
         *       "environment": "production",
         *       "ruleId": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *       "controlVariationKey": "off",
         *       "metrics": [
         *         {
         *           "key": "purchases",
         *           "event": "purchase",
         *           "kind": "conversion",
         *           "goal": "increase",
         *           "role": "primary",
         *           "windowHours": 168
         *         },
         *         {
         *           "key": "revenue",
         *           "event": "purchase",
         *           "kind": "mean",
         *           "goal": "increase",
         *           "role": "secondary"
         *         },
         *         {
         *           "key": "errors",
         *           "event": "checkout-error",
         *           "kind": "conversion",
         *           "goal": "decrease",
         *           "role": "guardrail"
         *         }
         *       ],
         *       "analysis": {
         *         "method": "sequential",
         *         "alpha": 0.05,
         *         "cuped": true,
         *         "preWindowDays": 7,
         *         "plannedUnits": 10000
         *       },
         *       "status": "running",
         *       "startedAt": "2026-12-01T09:00:00.000Z",
         *       "stoppedAt": null,
         *       "createdAt": "2026-11-30T16:20:00.000Z",
         *       "updatedAt": "2026-12-01T09:00:00.000Z"
         *     }
         */
        readonly Experiment: {
            readonly id: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            readonly name: string;
            readonly hypothesis?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            readonly ruleId: string;
            readonly controlVariationKey: string;
            readonly metrics: readonly components["schemas"]["Metric"][];
            readonly analysis: components["schemas"]["Analysis"];
            /** @enum {string} */
            readonly status: "draft" | "running" | "stopped";
            readonly startedAt: string | null;
            readonly stoppedAt: string | null;
            readonly decision?: components["schemas"]["ExperimentDecision"];
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        readonly Analysis: {
            /** @enum {string} */
            readonly method: "sequential" | "frequentist" | "bayesian";
            readonly alpha: number;
            readonly cuped: boolean;
            readonly preWindowDays: number;
            readonly plannedUnits: number;
        };
        readonly ExperimentDecision: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly variationKey: string;
            /**
             * maxLength(2000)
             * @description a string at most 2000 character(s) long
             */
            readonly note: string;
        };
        /**
         * @example {
         *       "key": "checkout-redesign",
         *       "name": "Checkout redesign",
         *       "hypothesis": "The one-page checkout converts more visitors into buyers",
         *       "flagKey": "new-checkout",
         *       "environment": "production",
         *       "ruleId": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *       "controlVariationKey": "off",
         *       "metrics": [
         *         {
         *           "key": "purchases",
         *           "event": "purchase",
         *           "kind": "conversion",
         *           "goal": "increase",
         *           "role": "primary",
         *           "windowHours": 168
         *         },
         *         {
         *           "key": "revenue",
         *           "event": "purchase",
         *           "kind": "mean",
         *           "goal": "increase",
         *           "role": "secondary"
         *         },
         *         {
         *           "key": "errors",
         *           "event": "checkout-error",
         *           "kind": "conversion",
         *           "goal": "decrease",
         *           "role": "guardrail"
         *         }
         *       ],
         *       "analysis": {
         *         "method": "sequential",
         *         "alpha": 0.05
         *       }
         *     }
         */
        readonly CreateExperimentInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /**
             * maxLength(200)
             * @description a string at most 200 character(s) long
             */
            readonly name?: string;
            /**
             * maxLength(2000)
             * @description a string at most 2000 character(s) long
             */
            readonly hypothesis?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            /** @description text without the NUL character (U+0000) */
            readonly ruleId: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly controlVariationKey: string;
            /**
             * maxItems(20)
             * @description an array of at most 20 item(s)
             */
            readonly metrics: readonly components["schemas"]["Metric"][];
            readonly analysis?: components["schemas"]["AnalysisInput"];
        };
        readonly AnalysisInput: {
            /** @enum {string} */
            readonly method?: "sequential" | "frequentist" | "bayesian";
            readonly alpha?: number;
            readonly cuped?: boolean;
            readonly preWindowDays?: number;
            readonly plannedUnits?: number;
        };
        /**
         * @example {
         *       "name": "Checkout redesign, one page",
         *       "analysis": {
         *         "plannedUnits": 20000
         *       }
         *     }
         */
        readonly PatchExperimentInput: {
            /**
             * maxLength(200)
             * @description a string at most 200 character(s) long
             */
            readonly name?: string;
            readonly hypothesis?: string | null;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment?: string;
            /** @description text without the NUL character (U+0000) */
            readonly ruleId?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly controlVariationKey?: string;
            /**
             * maxItems(20)
             * @description an array of at most 20 item(s)
             */
            readonly metrics?: readonly components["schemas"]["Metric"][];
            readonly analysis?: components["schemas"]["AnalysisInput"];
        };
        /**
         * @example {
         *       "decision": {
         *         "variationKey": "on",
         *         "note": "Purchases up 4%, errors flat: shipping it"
         *       }
         *     }
         */
        readonly StopExperimentInput: {
            readonly decision?: components["schemas"]["ExperimentDecision"];
        };
        /**
         * @example {
         *       "experimentKey": "checkout-redesign",
         *       "status": "running",
         *       "controlVariationKey": "off",
         *       "method": "sequential",
         *       "alpha": 0.05,
         *       "trustworthy": true,
         *       "checks": {
         *         "sampleRatio": {
         *           "variations": [
         *             {
         *               "variationKey": "off",
         *               "weight": 50000,
         *               "units": 10112,
         *               "expectedUnits": 10088
         *             },
         *             {
         *               "variationKey": "on",
         *               "weight": 50000,
         *               "units": 10064,
         *               "expectedUnits": 10088
         *             }
         *           ],
         *           "chiSquare": 0.11419508326724821,
         *           "pValue": 0.7354177252295314,
         *           "mismatch": false
         *         },
         *         "unitsInSeveralVariations": 12,
         *         "targetingChanges": [
         *           {
         *             "at": "2026-12-03T14:02:11.000Z",
         *             "action": "targeting.updated",
         *             "actor": {
         *               "type": "user",
         *               "userId": "01a2089b-1111-7000-8000-000000000001",
         *               "email": "ada@example.com"
         *             }
         *           }
         *         ],
         *         "notEnoughData": false,
         *         "minimumUnits": 100
         *       },
         *       "metrics": [
         *         {
         *           "key": "purchases",
         *           "event": "purchase",
         *           "kind": "conversion",
         *           "goal": "increase",
         *           "role": "primary",
         *           "variations": [
         *             {
         *               "variationKey": "off",
         *               "units": 10112,
         *               "mean": 0.09998022151898735,
         *               "variance": 0.08999307645577133
         *             },
         *             {
         *               "variationKey": "on",
         *               "units": 10064,
         *               "mean": 0.11397058823529412,
         *               "variance": 0.10099132816199122
         *             }
         *           ],
         *           "comparisons": [
         *             {
         *               "variationKey": "on",
         *               "absolute": {
         *                 "estimate": 0.013602606664067651,
         *                 "ci": [
         *                   0.0005627436920692935,
         *                   0.026642469636066007
         *                 ]
         *               },
         *               "relative": {
         *                 "estimate": 0.13579028000187732,
         *                 "ci": [
         *                   -0.0029903629889448113,
         *                   0.2745709229926995
         *                 ]
         *               },
         *               "pValue": 0.06034863598117618,
         *               "chanceToBeatControl": null,
         *               "cupedApplied": true,
         *               "verdict": "inconclusive"
         *             }
         *           ]
         *         },
         *         {
         *           "key": "revenue",
         *           "event": "purchase",
         *           "kind": "mean",
         *           "goal": "increase",
         *           "role": "secondary",
         *           "variations": [
         *             {
         *               "variationKey": "off",
         *               "units": 10112,
         *               "mean": 5.766416139240507,
         *               "variance": 904.3378770567587
         *             },
         *             {
         *               "variationKey": "on",
         *               "units": 10064,
         *               "mean": 6.4457472178060415,
         *               "variance": 1016.7807192667119
         *             }
         *           ],
         *           "comparisons": [
         *             {
         *               "variationKey": "on",
         *               "absolute": {
         *                 "estimate": 0.6602258875230396,
         *                 "ci": [
         *                   -0.6303223275028018,
         *                   1.950774102548881
         *                 ]
         *               },
         *               "relative": {
         *                 "estimate": 0.11430610441108047,
         *                 "ci": [
         *                   -0.1214721942439802,
         *                   0.35008440306614114
         *                 ]
         *               },
         *               "pValue": 1,
         *               "chanceToBeatControl": null,
         *               "cupedApplied": true,
         *               "verdict": "inconclusive"
         *             }
         *           ]
         *         },
         *         {
         *           "key": "errors",
         *           "event": "checkout-error",
         *           "kind": "conversion",
         *           "goal": "decrease",
         *           "role": "guardrail",
         *           "variations": [
         *             {
         *               "variationKey": "off",
         *               "units": 10112,
         *               "mean": 0.029964398734177215,
         *               "variance": 0.02906940828637566
         *             },
         *             {
         *               "variationKey": "on",
         *               "units": 10064,
         *               "mean": 0.029411764705882353,
         *               "variance": 0.028549549602211947
         *             }
         *           ],
         *           "comparisons": [
         *             {
         *               "variationKey": "on",
         *               "absolute": {
         *                 "estimate": -0.000688657174333588,
         *                 "ci": [
         *                   -0.007962429783616727,
         *                   0.006585115434949551
         *                 ]
         *               },
         *               "relative": {
         *                 "estimate": -0.02293058990431629,
         *                 "ci": [
         *                   -0.26234942885391455,
         *                   0.21648824904528197
         *                 ]
         *               },
         *               "pValue": 1,
         *               "chanceToBeatControl": null,
         *               "cupedApplied": true,
         *               "verdict": "inconclusive"
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        readonly ExperimentResults: {
            readonly experimentKey: string;
            /** @enum {string} */
            readonly status: "draft" | "running" | "stopped";
            readonly controlVariationKey: string;
            /** @enum {string} */
            readonly method: "sequential" | "frequentist" | "bayesian";
            readonly alpha: number;
            readonly trustworthy: boolean;
            readonly checks: components["schemas"]["ResultChecks"];
            readonly metrics: readonly components["schemas"]["MetricResult"][];
        };
        readonly ResultChecks: {
            readonly sampleRatio: components["schemas"]["SampleRatioCheck"] | null;
            readonly unitsInSeveralVariations: number;
            readonly targetingChanges: readonly components["schemas"]["TargetingChange"][];
            readonly notEnoughData: boolean;
            readonly minimumUnits: number;
        };
        readonly SampleRatioCheck: {
            readonly variations: readonly {
                readonly variationKey: string;
                readonly weight: number;
                readonly units: number;
                readonly expectedUnits: number;
            }[];
            readonly chiSquare: number;
            readonly pValue: number;
            readonly mismatch: boolean;
        };
        readonly TargetingChange: {
            readonly at: string;
            readonly action: string;
            readonly actor: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
        };
        readonly MetricResult: {
            readonly key: string;
            readonly event: string;
            /** @enum {string} */
            readonly kind: "conversion" | "mean";
            /** @enum {string} */
            readonly goal: "increase" | "decrease";
            /** @enum {string} */
            readonly role: "primary" | "secondary" | "guardrail";
            readonly variations: readonly components["schemas"]["VariationFigures"][];
            readonly comparisons: readonly components["schemas"]["TreatmentComparison"][];
        };
        readonly VariationFigures: {
            readonly variationKey: string;
            readonly units: number;
            readonly mean: number;
            readonly variance: number;
        };
        readonly TreatmentComparison: {
            readonly variationKey: string;
            readonly absolute: components["schemas"]["ResultEstimate"] | null;
            readonly relative: components["schemas"]["ResultEstimate"] | null;
            readonly pValue: number | null;
            readonly chanceToBeatControl: number | null;
            readonly cupedApplied: boolean;
            /** @enum {string} */
            readonly verdict: "better" | "worse" | "inconclusive";
        };
        readonly ResultEstimate: {
            readonly estimate: number;
            readonly ci: readonly [
                number,
                number
            ] | null;
        };
        /**
         * @example {
         *       "id": "01a2089c-1f3e-7a10-9b2d-5c8e4f7a6b31",
         *       "flagKey": "new-checkout",
         *       "environment": "production",
         *       "ruleId": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *       "variationKey": "on",
         *       "steps": [
         *         {
         *           "weight": 25000,
         *           "holdMinutes": 360
         *         },
         *         {
         *           "weight": 50000,
         *           "holdMinutes": 360
         *         },
         *         {
         *           "weight": 100000,
         *           "holdMinutes": 720
         *         }
         *       ],
         *       "guardrails": [
         *         {
         *           "key": "errors",
         *           "event": "checkout-error",
         *           "kind": "conversion",
         *           "goal": "decrease",
         *           "role": "guardrail"
         *         }
         *       ],
         *       "onHarm": "pause",
         *       "alpha": 0.05,
         *       "status": "running",
         *       "currentStep": 0,
         *       "nextStepAt": "2026-12-02T15:00:00.000Z",
         *       "pausedBy": null,
         *       "failure": null,
         *       "harm": null,
         *       "baseline": [
         *         {
         *           "variationKey": "off",
         *           "weight": 90000
         *         }
         *       ],
         *       "startedBy": {
         *         "type": "key",
         *         "keyId": "01a2089b-0c1d-7e2f-8a3b-4c5d6e7f8a9b",
         *         "keyName": "Release tooling"
         *       },
         *       "startedAt": "2026-12-02T09:00:00.000Z",
         *       "completedAt": null,
         *       "version": 3,
         *       "createdAt": "2026-12-02T08:50:00.000Z",
         *       "updatedAt": "2026-12-02T09:00:00.000Z"
         *     }
         */
        readonly ReleasePlan: {
            readonly id: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            readonly ruleId: string;
            readonly variationKey: string;
            readonly steps: readonly components["schemas"]["ReleasePlanStep"][];
            readonly guardrails: readonly components["schemas"]["Metric"][];
            /** @enum {string} */
            readonly onHarm: "pause" | "rollback";
            readonly alpha: number;
            /** @enum {string} */
            readonly status: "draft" | "running" | "paused" | "harmed" | "completed" | "cancelled";
            readonly currentStep: number | null;
            readonly nextStepAt: string | null;
            readonly pausedBy: ("manual" | "targetingChanged" | "stepFailed") | null;
            readonly failure: string | null;
            readonly harm: components["schemas"]["ReleasePlanHarm"] | null;
            readonly baseline: readonly components["schemas"]["WeightedVariation"][] | null;
            readonly startedBy: components["schemas"]["ReleasePlanStarter"] | null;
            readonly startedAt: string | null;
            readonly completedAt: string | null;
            readonly version: number;
            readonly createdAt: string;
            readonly updatedAt: string;
        };
        /**
         * @example {
         *       "environment": "production",
         *       "ruleId": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *       "variationKey": "on",
         *       "steps": [
         *         {
         *           "weight": 25000,
         *           "holdMinutes": 360
         *         },
         *         {
         *           "weight": 50000,
         *           "holdMinutes": 360
         *         },
         *         {
         *           "weight": 100000,
         *           "holdMinutes": 720
         *         }
         *       ],
         *       "guardrails": [
         *         {
         *           "key": "errors",
         *           "event": "checkout-error",
         *           "kind": "conversion",
         *           "goal": "decrease",
         *           "role": "guardrail"
         *         }
         *       ],
         *       "onHarm": "rollback"
         *     }
         */
        readonly CreateReleasePlanInput: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            /** @description text without the NUL character (U+0000) */
            readonly ruleId: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly variationKey: string;
            readonly steps: readonly components["schemas"]["ReleasePlanStep"][];
            readonly guardrails?: readonly components["schemas"]["Metric"][];
            /** @enum {string} */
            readonly onHarm?: "pause" | "rollback";
            readonly alpha?: number;
        };
        /**
         * @example {
         *       "onHarm": "pause"
         *     }
         */
        readonly UpdateReleasePlanInput: {
            /** @description text without the NUL character (U+0000) */
            readonly ruleId?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly variationKey?: string;
            readonly steps?: readonly components["schemas"]["ReleasePlanStep"][];
            readonly guardrails?: readonly components["schemas"]["Metric"][];
            /** @enum {string} */
            readonly onHarm?: "pause" | "rollback";
            readonly alpha?: number;
        };
        /**
         * @example {
         *       "confirm": true
         *     }
         */
        readonly ResumeReleasePlanInput: {
            readonly confirm?: boolean;
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "01a2089b-5c10-7a41-9c3e-5d2f8e7b6a90",
         *           "projectId": "shop",
         *           "at": "2026-11-23T09:00:05.000Z",
         *           "actor": {
         *             "type": "key",
         *             "keyId": "key_01JDQ6A2B3C4D5E6F7G8H9J0K1",
         *             "keyName": "Release manager"
         *           },
         *           "action": "key.created",
         *           "resource": {
         *             "type": "key",
         *             "key": "key_01JDQ7Z6X5V4T3S2R1Q0P9N8M7"
         *           },
         *           "before": null,
         *           "after": {
         *             "id": "key_01JDQ7Z6X5V4T3S2R1Q0P9N8M7",
         *             "type": "client",
         *             "projectId": "shop",
         *             "name": "Storefront",
         *             "environment": null,
         *             "prefix": "cli_Xy7Q",
         *             "createdAt": "2026-11-23T09:00:05.000Z",
         *             "createdBy": null,
         *             "lastUsedAt": null,
         *             "revokedAt": null
         *           }
         *         }
         *       ],
         *       "nextCursor": "YXVkaXQ6MTI"
         *     }
         */
        readonly AuditPage: {
            readonly data: readonly components["schemas"]["AuditEntry"][];
            readonly nextCursor: string | null;
        };
        readonly AuditEntry: {
            readonly id: string;
            readonly projectId: string;
            readonly at: string;
            readonly actor: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
            readonly action: string;
            readonly resource: {
                /** @enum {string} */
                readonly type: "project" | "environment" | "flag" | "segment" | "webhook" | "key" | "schedule" | "user" | "member" | "change_request" | "experiment" | "release_plan";
                readonly key: string;
            };
            readonly environment?: string;
            readonly changeRequestId?: string;
            readonly reason?: string;
            /**
             * unknown
             * @description The resource as the API shows it (null before a creation and after a deletion).
             */
            readonly before: unknown;
            /**
             * unknown
             * @description The resource as the API shows it (null before a creation and after a deletion).
             */
            readonly after: unknown;
        };
        /** @description Too many open streams for this key, this client address or the server; retry after `Retry-After` seconds. */
        readonly TooManyRequests: {
            readonly error: {
                /** @enum {string} */
                readonly code: "rate_limited";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "environment": "production",
         *       "context": {
         *         "key": "user-42",
         *         "attributes": {
         *           "plan": "beta",
         *           "email": "ada@shop.example"
         *         }
         *       },
         *       "projectId": "shop"
         *     }
         */
        readonly EvaluateRequest: {
            /** @description The environment key. Optional with an environment-bound API key (it supplies its own); required otherwise. */
            readonly environment?: string;
            readonly context: components["schemas"]["EvaluationContext"];
            /** @description text without the NUL character (U+0000) */
            readonly projectId?: string;
        };
        readonly EvaluationContext: {
            /**
             * minLength(1)
             * @description a string at least 1 character(s) long
             */
            readonly key: string;
            /** object */
            readonly attributes?: {
                readonly [key: string]: unknown;
            };
        };
        /**
         * @example {
         *       "environment": "production",
         *       "flags": {
         *         "new-checkout": {
         *           "flagKey": "new-checkout",
         *           "value": true,
         *           "variationKey": "on",
         *           "reason": {
         *             "kind": "RULE_MATCH",
         *             "ruleId": "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
         *             "ruleIndex": 0
         *           }
         *         }
         *       }
         *     }
         */
        readonly EvaluateResponse: {
            readonly environment: string;
            readonly flags: {
                readonly [key: string]: components["schemas"]["EvaluationResult"];
            };
        };
        readonly EvaluationResult: {
            readonly flagKey: string;
            /** unknown */
            readonly value: unknown;
            readonly variationKey: string | null;
            readonly reason: components["schemas"]["Reason"];
        };
        readonly Reason: {
            /** @enum {string} */
            readonly kind: "OFF" | "FALLTHROUGH" | "RULE_MATCH" | "PREREQUISITE_FAILED" | "ERROR";
            readonly ruleId?: string;
            readonly ruleIndex?: number;
            readonly prerequisiteKey?: string;
            readonly error?: string;
        };
        /**
         * @example {
         *       "environment": "production",
         *       "context": {
         *         "key": "user-42",
         *         "attributes": {
         *           "plan": "beta",
         *           "email": "ada@shop.example"
         *         }
         *       },
         *       "flagKey": "new-checkout",
         *       "projectId": "shop"
         *     }
         */
        readonly ExplainRequest: {
            /** @description The environment key. Optional with an environment-bound API key (it supplies its own); required otherwise. */
            readonly environment?: string;
            readonly context: components["schemas"]["EvaluationContext"];
            /** @description text without the NUL character (U+0000) */
            readonly flagKey: string;
            /** @description text without the NUL character (U+0000) */
            readonly projectId?: string;
        };
        /**
         * @example {
         *       "result": {
         *         "flagKey": "new-checkout",
         *         "value": true,
         *         "variationKey": "on",
         *         "reason": {
         *           "kind": "RULE_MATCH",
         *           "ruleId": "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
         *           "ruleIndex": 0
         *         }
         *       },
         *       "trace": {
         *         "flagKey": "new-checkout",
         *         "prerequisites": [],
         *         "rules": [
         *           {
         *             "ruleId": "rule-01a2089b-5aa7-787c-bc94-ebe8884d1b27",
         *             "ruleIndex": 0,
         *             "matched": true,
         *             "conditions": [
         *               {
         *                 "operator": "in",
         *                 "values": [
         *                   "beta"
         *                 ],
         *                 "negate": false,
         *                 "matched": true,
         *                 "attribute": "plan",
         *                 "absent": false,
         *                 "value": "beta"
         *               }
         *             ]
         *           }
         *         ]
         *       }
         *     }
         */
        readonly Explanation: {
            readonly result: components["schemas"]["EvaluationResult"];
            readonly trace: components["schemas"]["FlagTrace"];
        };
        readonly FlagTrace: {
            readonly flagKey: string;
            readonly prerequisites: readonly components["schemas"]["PrerequisiteTrace"][];
            readonly rules: readonly components["schemas"]["RuleTrace"][];
        };
        readonly PrerequisiteTrace: {
            readonly flagKey: string;
            readonly variationKey: string;
            readonly met: boolean;
            readonly result: components["schemas"]["EvaluationResult"] | null;
            readonly trace: components["schemas"]["FlagTrace"] | null;
        };
        readonly RuleTrace: {
            readonly ruleId: string;
            readonly ruleIndex: number;
            readonly matched: boolean;
            readonly conditions: readonly (components["schemas"]["ConditionTrace"] | components["schemas"]["GroupTrace"])[];
            readonly rollout?: components["schemas"]["RolloutTrace"];
        };
        readonly ConditionTrace: {
            readonly operator: string;
            readonly values: readonly unknown[];
            readonly negate: boolean;
            readonly matched: boolean;
            readonly attribute?: string;
            readonly absent?: boolean;
            /** unknown */
            readonly value?: unknown;
            readonly segments?: readonly components["schemas"]["SegmentTrace"][];
        };
        readonly SegmentTrace: {
            readonly segmentKey: string;
            readonly matched: boolean;
            /**
             * @description Present when the segment's key lists decided: the key read (the context key, or the segment's `keyAttribute`) is in `included` (the segment matched) or `excluded` (it did not); its conditions were then not read.
             * @enum {string}
             */
            readonly listed?: "included" | "excluded";
            readonly conditions: readonly (components["schemas"]["SegmentConditionTrace"] | components["schemas"]["SegmentGroupTrace"])[];
        };
        readonly SegmentConditionTrace: {
            readonly operator: string;
            readonly values: readonly unknown[];
            readonly negate: boolean;
            readonly matched: boolean;
            readonly attribute?: string;
            readonly absent?: boolean;
            /** unknown */
            readonly value?: unknown;
        };
        /** @description A group (`anyOf`): the lists tried, in order, up to the first whose every condition matched; `matchedList` is its index (null: none matched). */
        readonly SegmentGroupTrace: {
            readonly anyOf: readonly components["schemas"]["SegmentGroupTraceList"][];
            readonly matched: boolean;
            readonly matchedList: number | null;
        };
        readonly SegmentGroupTraceList: {
            readonly matched: boolean;
            readonly conditions: readonly components["schemas"]["SegmentConditionTrace"][];
        };
        /** @description A group (`anyOf`): the lists tried, in order, up to the first whose every condition matched; `matchedList` is its index (null: none matched). */
        readonly GroupTrace: {
            readonly anyOf: readonly components["schemas"]["GroupTraceList"][];
            readonly matched: boolean;
            readonly matchedList: number | null;
        };
        readonly GroupTraceList: {
            readonly matched: boolean;
            readonly conditions: readonly components["schemas"]["ConditionTrace"][];
        };
        readonly RolloutTrace: {
            readonly bucketBy: string;
            readonly absent: boolean;
            /** unknown */
            readonly value?: unknown;
            readonly bucket: number | null;
            readonly variationKey: string | null;
        };
        readonly ConfigSnapshot: {
            readonly environment: string;
            readonly flags: readonly components["schemas"]["ConfigFlag"][];
            readonly segments: readonly components["schemas"]["ConfigSegment"][];
            readonly experiments?: readonly components["schemas"]["ConfigExperiment"][];
        };
        readonly ConfigFlag: {
            readonly key: string;
            /** @enum {string} */
            readonly type: "boolean" | "string" | "number" | "json";
            readonly enabled: boolean;
            readonly variations: readonly components["schemas"]["Variation"][];
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            readonly rules: readonly components["schemas"]["Rule"][];
            readonly version?: number;
        };
        readonly ConfigSegment: {
            readonly key: string;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            readonly included?: components["schemas"]["ConfigKeyList"];
            readonly excluded?: components["schemas"]["ConfigKeyList"];
            /** @description The context attribute the key lists match, when it is not the context key (absent: `key`). */
            readonly keyAttribute?: string;
        };
        readonly ConfigKeyList: {
            /** @description The list's version: one more at each replace or change of its keys. */
            readonly version: number;
            /** @description How many keys the list holds. */
            readonly count: number;
            /** @description The salt of the list's hashes (the same for every version of the list; another segment made under the same key has another): an SDK downloads the hashes from `GET /v1/config/segments/{segmentKey}/{list}` and hashes the key it looks up with it. */
            readonly salt?: string;
        };
        readonly ConfigExperiment: {
            readonly flagKey: string;
            readonly ruleId: string;
        };
        /**
         * @example {
         *       "context": {
         *         "targetingKey": "user-42",
         *         "plan": "beta"
         *       }
         *     }
         */
        readonly OfrepEvaluationRequest: {
            /** @description `targetingKey` is the context key (absent: evaluated without one); every other property is an attribute. */
            readonly context?: {
                readonly [key: string]: unknown;
            };
        };
        /**
         * @example {
         *       "key": "new-checkout",
         *       "value": true,
         *       "reason": "TARGETING_MATCH",
         *       "variant": "on",
         *       "metadata": {
         *         "ruleId": "r1",
         *         "ruleIndex": 0,
         *         "version": 3
         *       }
         *     }
         */
        readonly OfrepEvaluationSuccess: {
            /** @description The flag key. */
            readonly key: string;
            /** unknown */
            readonly value: unknown;
            /** @enum {string} */
            readonly reason: "TARGETING_MATCH" | "SPLIT" | "STATIC" | "DEFAULT" | "DISABLED";
            /** @description The variation key. */
            readonly variant: string;
            readonly metadata: components["schemas"]["OfrepMetadata"];
        };
        /** @description `ruleId` and `ruleIndex` of the rule that matched, `prerequisiteKey` of a prerequisite not met, and the flag's version. */
        readonly OfrepMetadata: {
            readonly ruleId?: string;
            readonly ruleIndex?: number;
            /** @description With the reason PREREQUISITE_FAILED: the prerequisite flag not met. */
            readonly prerequisiteKey?: string;
            /** @description The flag's version. */
            readonly version?: number;
        };
        /** @description PARSE_ERROR: the body is not a JSON object. INVALID_CONTEXT: a malformed context, no environment, an unknown environment. GENERAL: the flag cannot be evaluated. */
        readonly OfrepEvaluationFailure: {
            /** @description The flag key. */
            readonly key: string;
            /** @enum {string} */
            readonly errorCode: "PARSE_ERROR" | "INVALID_CONTEXT" | "GENERAL";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /** @description An internal error, logged by the server (on the single-flag route the body also names the `key`). */
        readonly OfrepInternalError: {
            /** @enum {string} */
            readonly errorCode: "GENERAL";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /** @description No flag with this key in the environment. */
        readonly OfrepFlagNotFound: {
            /** @description The flag key. */
            readonly key: string;
            /** @enum {string} */
            readonly errorCode: "FLAG_NOT_FOUND";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /** @description The body is over 1 MiB (on the single-flag route the body also names the `key`). */
        readonly OfrepPayloadTooLarge: {
            /** @enum {string} */
            readonly errorCode: "PARSE_ERROR";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /** @description Missing or malformed Authorization header, or an unknown key (on the single-flag route the body also names the `key`). */
        readonly OfrepUnauthorized: {
            /** @enum {string} */
            readonly errorCode: "GENERAL";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /** @description The key may not evaluate this project or environment (on the single-flag route the body also names the `key`). */
        readonly OfrepForbidden: {
            /** @enum {string} */
            readonly errorCode: "GENERAL";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /**
         * @example {
         *       "flags": [
         *         {
         *           "key": "new-checkout",
         *           "value": true,
         *           "reason": "TARGETING_MATCH",
         *           "variant": "on",
         *           "metadata": {
         *             "ruleId": "r1",
         *             "ruleIndex": 0,
         *             "version": 3
         *           }
         *         }
         *       ],
         *       "metadata": {
         *         "version": "W/\"kq3mYx1rP0bE2u9wN4s7ZtVdQaL\""
         *       },
         *       "eventStreams": [
         *         {
         *           "type": "sse",
         *           "url": "https://flags.example.com/v1/stream?environment=production&token=v1.eyJwIjoiYWNtZSJ9.c2lnbmF0dXJl"
         *         }
         *       ]
         *     }
         */
        readonly OfrepBulkSuccess: {
            readonly flags: readonly (components["schemas"]["OfrepEvaluationSuccess"] | components["schemas"]["OfrepFlagFailure"])[];
            readonly metadata: {
                /** @description The configuration's version: the ETag of GET /v1/config for this environment. */
                readonly version: string;
            };
            /** @description Where to follow changes (OFREP change notifications): refetch the bulk evaluation on each event. */
            readonly eventStreams?: readonly {
                /** @enum {string} */
                readonly type: "sse";
                /** @description This server's GET /v1/stream for the same project and environment, with a stream token (no API key in the URL). */
                readonly url: string;
            }[];
        };
        /** @description A flag whose definition cannot be evaluated. */
        readonly OfrepFlagFailure: {
            /** @description The flag key. */
            readonly key: string;
            /** @enum {string} */
            readonly errorCode: "GENERAL";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
            readonly metadata: components["schemas"]["OfrepMetadata"];
        };
        /** @description PARSE_ERROR: the body is not a JSON object. INVALID_CONTEXT: a malformed context, no environment, an unknown environment. */
        readonly OfrepBulkFailure: {
            /** @enum {string} */
            readonly errorCode: "PARSE_ERROR" | "INVALID_CONTEXT";
            /** @description What went wrong, for logs. */
            readonly errorDetails: string;
        };
        /**
         * @example {
         *       "flagKey": "new-checkout",
         *       "environment": "production",
         *       "from": "2026-11-23T13:00:00.000Z",
         *       "to": "2026-11-23T14:00:00.000Z",
         *       "variations": [
         *         {
         *           "variationKey": "on",
         *           "total": 230,
         *           "points": [
         *             {
         *               "hour": "2026-11-23T13:00:00.000Z",
         *               "count": 110
         *             },
         *             {
         *               "hour": "2026-11-23T14:00:00.000Z",
         *               "count": 120
         *             }
         *           ]
         *         },
         *         {
         *           "variationKey": "off",
         *           "total": 1720,
         *           "points": [
         *             {
         *               "hour": "2026-11-23T13:00:00.000Z",
         *               "count": 840
         *             },
         *             {
         *               "hour": "2026-11-23T14:00:00.000Z",
         *               "count": 880
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        readonly InsightsSeries: {
            readonly flagKey: string;
            readonly environment: string;
            readonly from: string;
            readonly to: string;
            readonly variations: readonly components["schemas"]["VariationSeries"][];
        };
        readonly VariationSeries: {
            readonly variationKey: string;
            readonly total: number;
            readonly points: readonly components["schemas"]["InsightsPoint"][];
        };
        readonly InsightsPoint: {
            readonly hour: string;
            readonly count: number;
        };
        /**
         * @example {
         *       "projectId": "shop",
         *       "environment": "production",
         *       "from": "2026-11-23T14:00:00.000Z",
         *       "to": "2026-11-23T14:01:00.000Z",
         *       "counts": [
         *         {
         *           "flagKey": "new-checkout",
         *           "variationKey": "on",
         *           "count": 120
         *         },
         *         {
         *           "flagKey": "new-checkout",
         *           "variationKey": "off",
         *           "count": 880
         *         }
         *       ]
         *     }
         */
        readonly InsightsReport: {
            readonly projectId?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment?: string;
            readonly from: string;
            readonly to: string;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            readonly counts: readonly components["schemas"]["ReportedCount"][];
        };
        readonly ReportedCount: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly variationKey: string;
            /**
             * between(1, 1000000000)
             * @description a number between 1 and 1000000000
             */
            readonly count: number;
        };
        /**
         * @example {
         *       "accepted": 2,
         *       "ignored": 0
         *     }
         */
        readonly InsightsReceipt: {
            readonly accepted: number;
            readonly ignored: number;
        };
        /**
         * @example {
         *       "environment": "production",
         *       "batchId": "sdk-7f3a-000042",
         *       "exposures": [
         *         {
         *           "flagKey": "new-checkout",
         *           "variationKey": "on",
         *           "ruleId": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *           "unit": "user-1042",
         *           "timestamp": "2026-12-01T09:15:02.120Z"
         *         },
         *         {
         *           "flagKey": "new-checkout",
         *           "variationKey": "off",
         *           "ruleId": "rule-01a2089b-5aa7-70d8-bb66-f218f6a06368",
         *           "unit": "user-1043",
         *           "timestamp": "2026-12-01T09:15:02.480Z"
         *         }
         *       ]
         *     }
         */
        readonly ExposureBatch: {
            readonly projectId?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment?: string;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            readonly batchId?: string;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            readonly exposures: readonly components["schemas"]["Exposure"][];
        };
        readonly Exposure: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly flagKey: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly variationKey: string;
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            readonly ruleId: string;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            readonly unit: string;
            readonly timestamp: string;
        };
        /**
         * @example {
         *       "accepted": 2,
         *       "dropped": 0,
         *       "duplicate": false
         *     }
         */
        readonly IngestReceipt: {
            readonly accepted: number;
            readonly dropped: number;
            readonly duplicate: boolean;
        };
        /** @description This key sent more items this clock hour than its budget (`ingestKeyHour`); send again after the hour. */
        readonly IngestLimited: {
            readonly error: {
                /** @enum {string} */
                readonly code: "rate_limited";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "environment": "production",
         *       "batchId": "sdk-7f3a-000043",
         *       "events": [
         *         {
         *           "event": "purchase",
         *           "unit": "user-1042",
         *           "value": 49.9,
         *           "timestamp": "2026-12-01T09:17:40.000Z"
         *         },
         *         {
         *           "event": "signup",
         *           "unit": "user-1043"
         *         }
         *       ]
         *     }
         */
        readonly TrackBatch: {
            readonly projectId?: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment?: string;
            /**
             * maxLength(64)
             * @description a string at most 64 character(s) long
             */
            readonly batchId?: string;
            /**
             * maxItems(1000)
             * @description an array of at most 1000 item(s)
             */
            readonly events: readonly components["schemas"]["MetricEvent"][];
        };
        readonly MetricEvent: {
            /**
             * maxLength(128)
             * @description a string at most 128 character(s) long
             */
            readonly event: string;
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            readonly unit: string;
            readonly value?: number;
            readonly timestamp?: string;
        };
        /**
         * Flagport project file
         * @description One Flagport project as code: environments, segments and flags with their targeting per environment (flagport export / flagport apply).
         * @example {
         *       "project": {
         *         "id": "shop"
         *       },
         *       "flags": [
         *         {
         *           "key": "dark-mode",
         *           "name": "Dark mode",
         *           "type": "boolean",
         *           "variations": [
         *             {
         *               "key": "on",
         *               "value": true
         *             },
         *             {
         *               "key": "off",
         *               "value": false
         *             }
         *           ],
         *           "environments": [
         *             {
         *               "key": "production",
         *               "enabled": true,
         *               "defaultVariationKey": "on",
         *               "offVariationKey": "off"
         *             }
         *           ]
         *         }
         *       ]
         *     }
         */
        readonly ProjectFile: {
            /** @description The address of this JSON Schema, for editors. */
            readonly $schema?: string;
            readonly project: components["schemas"]["FileProject"];
            readonly environments?: readonly components["schemas"]["FileEnvironment"][];
            readonly segments?: readonly components["schemas"]["FileSegment"][];
            readonly flags?: readonly components["schemas"]["FileFlag"][];
        };
        /** @description The project: its id (as in /v1/projects/{id}) and name. */
        readonly FileProject: {
            /** @description a string matching the pattern ^[a-z0-9][a-z0-9_-]{0,62}$ */
            readonly id: string;
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name?: string;
        };
        /** @description An environment; clientConfig (default full), protected (default false) and requiredApprovals (default 1) as on PATCH .../environments/{key}. */
        readonly FileEnvironment: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name: string;
            /**
             * @description What client keys may read: `full` (default) also `GET /v1/config`, rules and segments included; `evaluated` only evaluated answers (evaluate, OFREP, stream): `GET /v1/config` and `POST /v1/explain` answer them 403. Server keys always get the configuration.
             * @enum {string}
             */
            readonly clientConfig?: "full" | "evaluated";
            readonly protected?: boolean;
            /**
             * between(1, 5)
             * @description Approvals a change request to this environment needs before it can be applied (1-5).
             */
            readonly requiredApprovals?: components["schemas"]["Int"];
        };
        /** @description A segment, as the body of POST .../segments, with its key lists as files beside the project file (`keys`). */
        readonly FileSegment: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /**
             * maxLength(120)
             * @description a string at most 120 character(s) long
             */
            readonly name: string;
            readonly description?: string | null;
            readonly conditions: readonly (components["schemas"]["Condition"] | components["schemas"]["ConditionGroup"])[];
            /** @description The context attribute the segment's key lists match (`key`, the context key, when not given); at most 256 characters. */
            readonly keyAttribute?: string;
            /** @description The segment's key lists, each a file beside the project file (read by `flagport apply`, written by `flagport export --out`): a path is the `included` list's; an object names either list. A list not named is to be empty; a segment without `keys` keeps its lists as they are. Only the command line reads these files: POST .../apply refuses a file with `keys` (400); upload lists with PUT .../segments/{segmentKey}/keys/{list}. */
            readonly keys?: string | {
                /**
                 * maxLength(1024)
                 * @description A file of keys, one a line (text/plain; a .csv file is read as CSV with a header row), relative to the project file's folder.
                 */
                readonly included?: string;
                /**
                 * maxLength(1024)
                 * @description A file of keys, one a line (text/plain; a .csv file is read as CSV with a header row), relative to the project file's folder.
                 */
                readonly excluded?: string;
            };
        };
        /** @description A flag, as the body of POST .../flags (name defaults to the key), with its targeting in each environment listed and its release plans. */
        readonly FileFlag: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            /** @description text without the NUL character (U+0000) */
            readonly name?: string;
            readonly description?: string | null;
            /** @enum {string} */
            readonly type: "boolean" | "string" | "number" | "json";
            readonly variations: readonly components["schemas"]["Variation"][];
            readonly environments?: readonly components["schemas"]["FileTargeting"][];
            readonly releasePlans?: readonly components["schemas"]["FileReleasePlan"][];
        };
        /** @description The flag's targeting in the environment `key`, as the body of PUT .../flags/{flag}/targeting. */
        readonly FileTargeting: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            readonly enabled: boolean;
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            readonly rules?: readonly components["schemas"]["RuleInput"][];
        };
        /** @description A release plan of the flag in the environment `environment`, as the body of POST .../flags/{flag}/release-plans: at most one per environment. apply makes it a draft, or changes the draft; it never changes a started plan (refused) nor starts one. */
        readonly FileReleasePlan: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environment: string;
            /** @description text without the NUL character (U+0000) */
            readonly ruleId: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly variationKey: string;
            readonly steps: readonly components["schemas"]["ReleasePlanStep"][];
            readonly guardrails?: readonly components["schemas"]["Metric"][];
            /** @enum {string} */
            readonly onHarm?: "pause" | "rollback";
            readonly alpha?: number;
        };
        /**
         * @example {
         *       "projectId": "shop",
         *       "dryRun": false,
         *       "applied": true,
         *       "summary": {
         *         "create": 1,
         *         "update": 1,
         *         "delete": 0
         *       },
         *       "changes": [
         *         {
         *           "resource": "flag",
         *           "action": "create",
         *           "key": "dark-mode",
         *           "before": null,
         *           "after": {
         *             "key": "dark-mode",
         *             "name": "Dark mode",
         *             "type": "boolean",
         *             "variations": [
         *               {
         *                 "key": "on",
         *                 "value": true
         *               },
         *               {
         *                 "key": "off",
         *                 "value": false
         *               }
         *             ]
         *           }
         *         },
         *         {
         *           "resource": "targeting",
         *           "action": "update",
         *           "key": "dark-mode",
         *           "environment": "production",
         *           "before": {
         *             "key": "production",
         *             "enabled": false,
         *             "defaultVariationKey": "on",
         *             "offVariationKey": "off",
         *             "prerequisites": [],
         *             "rules": []
         *           },
         *           "after": {
         *             "key": "production",
         *             "enabled": true,
         *             "defaultVariationKey": "on",
         *             "offVariationKey": "off",
         *             "prerequisites": [],
         *             "rules": []
         *           }
         *         }
         *       ],
         *       "changeRequests": [],
         *       "pendingChangeRequests": [],
         *       "fingerprint": "4e1f0c9a7b2d6e38"
         *     }
         */
        readonly ApplyResult: {
            readonly projectId: string;
            readonly dryRun: boolean;
            /** @description Whether the changes were written (false for a dry run or when there was nothing to do). */
            readonly applied: boolean;
            readonly summary: {
                readonly create: number;
                readonly update: number;
                readonly delete: number;
            };
            readonly changes: readonly components["schemas"]["PlannedChange"][];
            /** @description The change requests this apply opened or updated (none for a dry run). */
            readonly changeRequests: readonly components["schemas"]["OpenedChangeRequest"][];
            /** @description The author's pending change requests that already propose some of the file: applying the same file again opens nothing. */
            readonly pendingChangeRequests: readonly components["schemas"]["PendingChangeRequest"][];
            /** @description The plan's fingerprint (16 hex digits, a hash of its changes and the versions they are based on): `POST .../apply?plan=` with it applies exactly this plan, or refuses with 409 if the project moved since. */
            readonly fingerprint: string;
        };
        readonly PlannedChange: {
            /** @enum {string} */
            readonly resource: "project" | "environment" | "segment" | "flag" | "targeting" | "release_plan";
            /** @enum {string} */
            readonly action: "create" | "update" | "delete";
            /** @description The project's id, or the environment's, segment's or flag's key (targeting and release_plan: the flag's). */
            readonly key: string;
            /** @description Targeting and release_plan: its environment. */
            readonly environment?: string;
            /**
             * unknown
             * @description The item now, in the file's shape (null when created).
             */
            readonly before: unknown;
            /**
             * unknown
             * @description The item as the file wants it (null when deleted).
             */
            readonly after: unknown;
            /** @description What the change is based on, checked again when it is applied: the flag's version, the segment's updatedAt, or the release plan's version. */
            readonly basedOn?: number | string;
            /** @description release_plan update or delete: the id of the draft plan it changes (a create makes a new draft). */
            readonly releasePlanId?: string;
            /** @description Targeting in a protected environment changed by a person: proposed as a change request instead of written. */
            readonly changeRequest?: boolean;
            /** @description Proposed: the author's pending change request (open or approved) that already names this flag in this environment, which this change updates (its approvals are cleared). Absent: a new change request is opened. */
            readonly changeRequestId?: string;
        };
        readonly OpenedChangeRequest: {
            readonly id: string;
            /**
             * @description `opened`: a new change request; `updated`: the author's pending one for these flags, its changes replaced for them and its approvals cleared.
             * @enum {string}
             */
            readonly action: "opened" | "updated";
            readonly environment: string;
            /** @description The flags of the file this apply proposed in it. */
            readonly flagKeys: readonly string[];
        };
        /** @description A pending change request of the author that already proposes the file's targeting of these flags, on their versions now: nothing to change for them; it awaits approval. */
        readonly PendingChangeRequest: {
            readonly id: string;
            readonly environment: string;
            readonly flagKeys: readonly string[];
        };
        /**
         * @example {
         *       "projectId": "shop",
         *       "environment": "production",
         *       "written": true,
         *       "flags": [
         *         {
         *           "key": "new-search",
         *           "result": "imported",
         *           "rules": 1
         *         }
         *       ],
         *       "changeRequests": []
         *     }
         */
        readonly FlagdImportReport: {
            readonly projectId: string;
            readonly environment: string;
            /** @description Whether the flags marked imported or proposed were written (false for a dry run, or when a refusal stopped the import). */
            readonly written: boolean;
            readonly flags: readonly components["schemas"]["FlagdFlagOutcome"][];
            /** @description The change requests opened for the flags' targeting (a person importing into a protected environment; 50 flags each); empty otherwise. */
            readonly changeRequests: readonly components["schemas"]["FlagdProposal"][];
        };
        readonly FlagdFlagOutcome: {
            readonly key: string;
            /**
             * @description `imported`: created, with its targeting in the environment; `proposed`: created, its targeting proposed in `changeRequests` (a person in a protected environment); `would ...`: the same in a dry run.
             * @enum {string}
             */
            readonly result: "imported" | "would import" | "proposed" | "would propose";
            readonly rules: number;
        } | {
            readonly key: string;
            /**
             * @description `refused`: no faithful translation (or the project has the key), so nothing is imported; `skipped`: the same, left out under `skipUnsupported`.
             * @enum {string}
             */
            readonly result: "refused" | "skipped";
            /** @description Where in the file, e.g. `flags.headerColor.targeting.if[0]`. */
            readonly path: string;
            readonly reason: string;
        };
        readonly FlagdProposal: {
            readonly id: string;
            readonly flagKeys: readonly string[];
        };
        /**
         * @example {
         *       "email": "edna@shop.example",
         *       "password": "correct horse battery staple"
         *     }
         */
        readonly LoginInput: {
            /**
             * maxLength(320)
             * @description a string at most 320 character(s) long
             */
            readonly email: string;
            /**
             * maxLength(1024)
             * @description a string at most 1024 character(s) long
             */
            readonly password: string;
        };
        /**
         * @example {
         *       "user": {
         *         "id": "usr_01JDQ8B4C5D6E7F8G9H0J1K2L3",
         *         "email": "edna@shop.example",
         *         "name": "Edna",
         *         "admin": false,
         *         "createdAt": "2026-11-23T09:10:00.000Z",
         *         "lastSignInAt": "2026-11-23T09:12:00.000Z",
         *         "disabledAt": null,
         *         "sso": false
         *       },
         *       "memberships": [
         *         {
         *           "projectId": "shop",
         *           "role": "editor"
         *         }
         *       ]
         *     }
         */
        readonly Me: {
            readonly user: components["schemas"]["User"];
            readonly memberships: readonly components["schemas"]["Membership"][];
        };
        /**
         * @example {
         *       "id": "usr_01JDQ8B4C5D6E7F8G9H0J1K2L3",
         *       "email": "edna@shop.example",
         *       "name": "Edna",
         *       "admin": false,
         *       "createdAt": "2026-11-23T09:10:00.000Z",
         *       "lastSignInAt": null,
         *       "disabledAt": null,
         *       "sso": false
         *     }
         */
        readonly User: {
            readonly id: string;
            readonly email: string;
            readonly name: string;
            readonly admin: boolean;
            readonly createdAt: string;
            readonly lastSignInAt: string | null;
            readonly disabledAt: string | null;
            readonly sso: boolean;
        };
        readonly Membership: {
            readonly projectId: string;
            /** @enum {string} */
            readonly role: "viewer" | "editor" | "admin";
        };
        /** @description Too many failed sign-ins for this email within 15 minutes; retry after `Retry-After` seconds. */
        readonly SignInLimited: {
            readonly error: {
                /** @enum {string} */
                readonly code: "rate_limited";
                readonly message: string;
                readonly details?: readonly {
                    readonly path: string;
                    readonly message: string;
                }[];
            };
        };
        /**
         * @example {
         *       "token": "3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
         *       "password": "correct horse battery staple"
         *     }
         */
        readonly SetupInput: {
            /**
             * maxLength(256)
             * @description a string at most 256 character(s) long
             */
            readonly token: string;
            /**
             * maxLength(1024)
             * @description a string at most 1024 character(s) long
             */
            readonly password: string;
        };
        /**
         * @example {
         *       "password": true,
         *       "oidc": {
         *         "name": "Acme SSO"
         *       }
         *     }
         */
        readonly SignInProviders: {
            /** @enum {boolean} */
            readonly password: true;
            readonly oidc: {
                readonly name: string;
            } | null;
        };
        /**
         * @example {
         *       "email": "edna@shop.example",
         *       "name": "Edna",
         *       "projects": [
         *         {
         *           "projectId": "shop",
         *           "role": "editor"
         *         }
         *       ]
         *     }
         */
        readonly InviteUserInput: {
            /**
             * maxLength(254)
             * @description a string matching the pattern ^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$|^[^\s@]{1,64}@localhost$
             */
            readonly email: string & unknown;
            /**
             * maxLength(200)
             * @description a string at most 200 character(s) long
             */
            readonly name?: string;
            readonly admin?: boolean;
            readonly projects?: readonly components["schemas"]["Membership"][];
        };
        /**
         * @example {
         *       "user": {
         *         "id": "usr_01JDQ8B4C5D6E7F8G9H0J1K2L3",
         *         "email": "edna@shop.example",
         *         "name": "Edna",
         *         "admin": false,
         *         "createdAt": "2026-11-23T09:10:00.000Z",
         *         "lastSignInAt": null,
         *         "disabledAt": null,
         *         "sso": false
         *       },
         *       "setupUrl": "https://flags.shop.example/ui/setup#token=3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
         *     }
         */
        readonly InvitedUser: {
            readonly user: components["schemas"]["User"];
            /** @description `<public URL>/ui/setup#token=<one-time token>`: valid 72 h, usable once. There is no mail: pass it on. */
            readonly setupUrl: string;
        };
        /**
         * @example {
         *       "name": "Edna Mode"
         *     }
         */
        readonly PatchUserInput: {
            /**
             * maxLength(200)
             * @description a string at most 200 character(s) long
             */
            readonly name?: string;
            readonly admin?: boolean;
            readonly disabled?: boolean;
        };
        /**
         * @example {
         *       "setupUrl": "https://flags.shop.example/ui/setup#token=3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
         *     }
         */
        readonly SetupLink: {
            /** @description `<public URL>/ui/setup#token=<one-time token>`: valid 72 h, usable once. There is no mail: pass it on. */
            readonly setupUrl: string;
        };
        readonly SsoLinkAllowance: {
            readonly user: components["schemas"]["User"];
            /** @description When the allowance lapses unspent (72 h after it was given). */
            readonly expiresAt: string;
        };
        /**
         * @example {
         *       "user": {
         *         "id": "usr_01JDQ8B4C5D6E7F8G9H0J1K2L3",
         *         "email": "edna@shop.example",
         *         "name": "Edna Mode",
         *         "admin": false,
         *         "createdAt": "2026-11-23T09:10:00.000Z",
         *         "lastSignInAt": null,
         *         "disabledAt": null,
         *         "sso": false
         *       },
         *       "role": "admin"
         *     }
         */
        readonly Member: {
            readonly user: components["schemas"]["User"];
            /** @enum {string} */
            readonly role: "viewer" | "editor" | "admin";
        };
        /**
         * @example {
         *       "role": "admin"
         *     }
         */
        readonly MemberInput: {
            /** @enum {string} */
            readonly role: "viewer" | "editor" | "admin";
        };
        readonly ManagementEvent: {
            /** @description The event's place in the project's audit log; send it back as `Last-Event-ID` to resume after it. */
            readonly id: string;
            /** @description What happened, as the audit log names it: `flag.created`, `flag.updated`, `flag.deleted`, `targeting.updated`, `segment.*`, `environment.*`, `schedule.*`, `change_request.*`, `key.*`, `webhook.*`, `member.*`... */
            readonly kind: string;
            readonly resource: {
                /** @enum {string} */
                readonly type: "project" | "environment" | "flag" | "segment" | "webhook" | "key" | "schedule" | "user" | "member" | "change_request" | "experiment" | "release_plan";
                readonly key: string;
            };
            /** @description The flags the change concerns (a flag's own change, a schedule's flag, a change request's flags). */
            readonly flagKeys: readonly string[];
            /** @description The environments whose configuration of those flags changed (every configuration of a created or deleted flag, all of them when variations changed); the environment of a change to one (a schedule, a change request, an environment); empty otherwise. */
            readonly environments: readonly string[];
            /** @description A flag's version after the change (its new `ETag`); null for a deleted flag and for other resources. */
            readonly version: number | null;
            /** @description For a flag: each environment whose configuration changed, with that configuration's new version (its targeting `ETag` is `"<environment>:<version>"`). */
            readonly configVersions: {
                readonly [key: string]: number;
            };
            readonly actor: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
            readonly at: string;
            readonly changeRequestId?: string;
        };
        readonly WebhookEvent: {
            readonly id: string;
            /** @enum {string} */
            readonly type: "flag.created" | "flag.updated" | "flag.deleted" | "targeting.updated" | "change_request.opened" | "change_request.approved" | "change_request.rejected" | "change_request.applied" | "experiment.started" | "experiment.stopped" | "release_plan.started" | "release_plan.advanced" | "release_plan.paused" | "release_plan.harmed" | "release_plan.completed" | "release_plan.cancelled";
            readonly projectId: string;
            readonly occurredAt: string;
            readonly data: {
                readonly flag: components["schemas"]["Flag"];
                readonly environment?: string;
            } | {
                readonly changeRequest: components["schemas"]["ChangeRequestRecord"];
            } | {
                readonly experiment: components["schemas"]["Experiment"];
            } | {
                readonly releasePlan: components["schemas"]["ReleasePlan"];
            };
        };
        readonly Flag: {
            readonly id: string;
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly key: string;
            readonly name: string;
            readonly description: string | null;
            /** @enum {string} */
            readonly type: "boolean" | "string" | "number" | "json";
            readonly variations: readonly components["schemas"]["Variation"][];
            readonly configs: readonly components["schemas"]["Targeting"][];
            readonly createdAt: string;
            readonly updatedAt: string;
            readonly version: number;
        };
        readonly Targeting: {
            /** @description a string matching the pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$ */
            readonly environmentKey: string;
            readonly enabled: boolean;
            readonly defaultVariationKey: string;
            readonly offVariationKey: string;
            readonly prerequisites?: readonly components["schemas"]["Prerequisite"][];
            readonly rules: readonly components["schemas"]["Rule"][];
            /** @description This configuration's version: the flag's version as of the last change to this environment's targeting or to the flag's variations. Its `ETag` (GET .../targeting) is `"<environmentKey>:<version>"`. */
            readonly version?: number;
        };
        /** @description A change request as it was recorded (webhook events): its approvals as given. Whether each still counts is in the API's answers (`ChangeRequest`). */
        readonly ChangeRequestRecord: {
            readonly id: string;
            readonly projectId: string;
            readonly environment: string;
            readonly title: string;
            readonly description: string | null;
            /** @enum {string} */
            readonly status: "open" | "approved" | "rejected" | "cancelled" | "applied";
            readonly author: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            };
            readonly createdAt: string;
            readonly updatedAt: string;
            readonly changes: readonly components["schemas"]["Change"][];
            /** @description The release plans the request starts (or resumes) when applied, after its targeting changes: each pinned as it was when the request was opened or its plans last updated (`baseVersion`, `plan`). The apply is refused (409, as for a flag that moved on) when a plan changed since. Empty for a request of targeting changes only. */
            readonly releasePlans: readonly components["schemas"]["ReleasePlanChange"][];
            /** @description The segments the changes' rules name, pinned as they were when the request was opened or its changes last updated (key, name, conditions, updatedAt): what an approver approves along with the diff. The apply is refused (409, as for a flag that moved on) when one is gone or changed since. */
            readonly segments: readonly components["schemas"]["ChangeSegment"][];
            readonly approvals: readonly components["schemas"]["Approval"][];
            readonly requiredApprovals: number;
            readonly applyAt: string | null;
            readonly rejection: components["schemas"]["Approval"] | null;
            readonly appliedAt: string | null;
            readonly appliedBy: {
                /** @enum {string} */
                readonly type: "key" | "cli" | "schedule" | "user" | "releasePlan";
                readonly keyId?: string;
                readonly keyName?: string;
                readonly userId?: string;
                readonly email?: string;
                readonly id?: string;
                readonly startedBy?: {
                    /** @enum {string} */
                    readonly type: "key" | "cli" | "schedule" | "user";
                    readonly keyId?: string;
                    readonly keyName?: string;
                    readonly userId?: string;
                    readonly email?: string;
                };
            } | null;
            readonly failure: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
