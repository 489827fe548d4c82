/**
 * Peer SDK evaluators for workload W2 (see bench/evaluator.bench.ts), set up once and ready, so a
 * benchmark can time them side by side with Flagport's evaluator in one process.
 *
 * Plain JavaScript (not TypeScript) on purpose: the packages live in bench/peers/node_modules
 * (`npm --prefix bench/peers install`), which the root `tsc` / `eslint` runs never see.
 *
 * W2: string flag `checkout-variant`, variations A="a", B="b", C="c"; ordered rules:
 *   (1) country in [US, CA, MX] AND plan in [pro, enterprise] -> A
 *   (2) email endsWith "@example.com"                          -> B
 *   (3) 50/50 rollout by the context key between A and C
 *   fallthrough C.
 *
 * `makePeers()` resolves to one entry per peer:
 *   {
 *     name, version,                 // package name and installed version
 *     sync: boolean,                 // true: use `evaluate`; false: use `evaluateAsync`
 *     evaluate?(context) -> string   // synchronous per-call evaluation ("a" | "b" | "c")
 *     evaluateAsync?(context) -> Promise<string>
 *     toNative(context) -> peer context          // our { key, attributes } -> the SDK's context shape
 *     evaluateNative?(nativeContext) -> string   // same as evaluate, context already mapped
 *     evaluateNativeAsync?(nativeContext) -> Promise<string>
 *     close() -> Promise<void>       // release the SDK's resources (harmless to skip: the
 *                                    // process exits without it too, checked with 9.13.7)
 *   }
 * The LaunchDarkly entry also has `evaluatorVersion` (js-server-sdk-common) and a private
 * synchronous path, `evaluateInternalSync(context)` / `evaluateInternalNative(native)`: see below.
 * `evaluate` / `evaluateAsync` map the context on every call (what a user holding Flagport-shaped
 * contexts pays); `toNative` + `evaluateNative*` let a benchmark pre-map the contexts outside the
 * timed loop (what a user who builds the SDK's own context type pays).
 *
 * If a peer cannot be installed or set up, makePeers throws and says which and why; it never skips.
 */
import { readFileSync } from "node:fs"

const FLAG_KEY = "checkout-variant"

/**
 * Installed version of a package, read from bench/peers/node_modules/<pkg>/package.json (some
 * packages' `exports` maps do not expose ./package.json to require/import).
 */
const versionOf = (pkg) => {
  try {
    return JSON.parse(readFileSync(new URL(`./node_modules/${pkg}/package.json`, import.meta.url), "utf8")).version
  } catch {
    return "unknown"
  }
}

const importPeer = async (pkg) => {
  try {
    return await import(pkg)
  } catch (e) {
    throw new Error(
      `bench/peers: cannot load ${pkg} (${e instanceof Error ? e.message : String(e)}). ` +
        "Install the peers first: npm --prefix bench/peers install",
      { cause: e }
    )
  }
}

const setUp = async (peer, fn) => {
  try {
    return await fn()
  } catch (e) {
    throw new Error(`bench/peers: setting up ${peer} failed: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e
    })
  }
}

// ---------------------------------------------------------------------------------------------
// flagd (in-process evaluator of flagd providers): @openfeature/flagd-core, JSON-logic targeting.
// FlagdCore#resolveStringEvaluation is synchronous. Bucketing of `fractional` with no explicit
// bucketBy hashes flagKey + targetingKey (murmur3), so its split differs from Flagport's.
// ---------------------------------------------------------------------------------------------
export const flagdW2Config = (rule3Sentinel) => ({
  flags: {
    [FLAG_KEY]: {
      state: "ENABLED",
      variants: { A: "a", B: "b", C: "c" },
      defaultVariant: "C",
      targeting: {
        if: [
          {
            and: [
              { in: [{ var: "country" }, ["US", "CA", "MX"]] },
              { in: [{ var: "plan" }, ["pro", "enterprise"]] }
            ]
          },
          "A",
          { ends_with: [{ var: "email" }, "@example.com"] },
          "B",
          rule3Sentinel === undefined ? { fractional: [["A", 50], ["C", 50]] } : "R"
        ]
      },
      ...(rule3Sentinel === undefined ? {} : { variants: { A: "a", B: "b", C: "c", R: rule3Sentinel } })
    }
  }
})

/** flagd context: flat, `targetingKey` plus the attributes at top level (read with `var`). */
const flagdContext = (context) => ({ targetingKey: context.key, ...context.attributes })

const makeFlagd = async (rule3Sentinel) => {
  const pkg = "@openfeature/flagd-core"
  const { FlagdCore } = await importPeer(pkg)
  return setUp(pkg, () => {
    // A silent logger: flagd-core logs per evaluation at debug level on some paths.
    const noop = () => {}
    const logger = { error: noop, warn: noop, info: noop, debug: noop }
    const core = new FlagdCore(undefined, logger)
    core.setConfigurations(JSON.stringify(flagdW2Config(rule3Sentinel)))
    if (core.getFlag(FLAG_KEY) === undefined) throw new Error(`flag ${FLAG_KEY} not loaded`)
    const evaluateNative = (native) => core.resolveStringEvaluation(FLAG_KEY, "c", native, logger).value
    // Fail now, not in the middle of a benchmark, if the targeting does not evaluate.
    const probe = core.resolveStringEvaluation(FLAG_KEY, "<default>", { targetingKey: "probe", country: "US", plan: "pro" }, logger)
    if (probe.value !== "a") throw new Error(`probe evaluated to ${JSON.stringify(probe)}, expected "a"`)
    return {
      name: pkg,
      version: versionOf(pkg),
      sync: true,
      // Synchronous: FlagdCore resolves in the calling stack (json-logic-engine compiled logic).
      evaluate: (context) => evaluateNative(flagdContext(context)),
      toNative: flagdContext,
      evaluateNative,
      close: async () => {}
    }
  })
}

// ---------------------------------------------------------------------------------------------
// LaunchDarkly: @launchdarkly/node-server-sdk (evaluator in @launchdarkly/js-server-sdk-common),
// fed the flag JSON through TestData.usePreconfiguredFlag: no network, no SDK key needed,
// events and diagnostics off.
//
// The public per-call API, LDClient#variation, returns a Promise (the hook runner is async),
// so the public path is exposed as `evaluateAsync`. For an evaluator-only comparison the entry
// also carries `evaluateInternalSync`: the client's private Evaluator#evaluateCb, whose callback
// runs synchronously for this flag (no prerequisites, segments or big segments). It is NOT a
// public API (underscore field of LDClientImpl, may change in any release); the version is pinned.
// ---------------------------------------------------------------------------------------------
export const launchDarklyW2Flag = (rule3Sentinel) => ({
  key: FLAG_KEY,
  version: 1,
  on: true,
  variations: ["a", "b", "c"],
  offVariation: 2,
  fallthrough: { variation: 2 },
  targets: [],
  contextTargets: [],
  prerequisites: [],
  rules: [
    {
      id: "north-america-paid",
      clauses: [
        { contextKind: "user", attribute: "country", op: "in", values: ["US", "CA", "MX"], negate: false },
        { contextKind: "user", attribute: "plan", op: "in", values: ["pro", "enterprise"], negate: false }
      ],
      variation: 0,
      trackEvents: false
    },
    {
      id: "staff",
      clauses: [{ contextKind: "user", attribute: "email", op: "endsWith", values: ["@example.com"], negate: false }],
      variation: 1,
      trackEvents: false
    },
    {
      id: "half",
      clauses: [], // no clauses: always matches (verified by the probe below)
      ...(rule3Sentinel === undefined
        ? {
            rollout: {
              bucketBy: "key",
              variations: [
                { variation: 0, weight: 50000 },
                { variation: 2, weight: 50000 }
              ]
            }
          }
        : { variation: 3 }),
      trackEvents: false
    }
  ],
  salt: "w2-salt",
  trackEvents: false,
  trackEventsFallthrough: false,
  clientSide: false,
  deleted: false,
  ...(rule3Sentinel === undefined ? {} : { variations: ["a", "b", "c", rule3Sentinel] })
})

/** LD context: kind user, key, and the attributes as top-level properties. */
const launchDarklyContext = (context) => ({ kind: "user", key: context.key, ...context.attributes })

const makeLaunchDarkly = async (rule3Sentinel) => {
  const pkg = "@launchdarkly/node-server-sdk"
  const ld = await importPeer(pkg)
  return setUp(pkg, async () => {
    const td = new ld.integrations.TestData()
    td.usePreconfiguredFlag(launchDarklyW2Flag(rule3Sentinel))
    const noop = () => {}
    const client = ld.init("sdk-key-unused-offline-bench", {
      updateProcessor: td.getFactory(),
      sendEvents: false,
      diagnosticOptOut: true,
      logger: { error: noop, warn: noop, info: noop, debug: noop }
    })
    try {
      await client.waitForInitialization({ timeout: 10 })
      const evaluateNativeAsync = (native) => client.variation(FLAG_KEY, native, "c")

      // Private, synchronous evaluator path (see the comment above): flag object from the store once.
      const evaluator = client._evaluator
      const Context = ld.Context
      let flag
      client._featureStore.get({ namespace: "features" }, FLAG_KEY, (item) => {
        flag = item
      })
      if (evaluator === undefined || typeof evaluator.evaluateCb !== "function" || Context === undefined || flag === undefined) {
        throw new Error("private evaluator path (LDClientImpl#_evaluator, Context.fromLDContext, feature store) not found in this version")
      }
      const eventFactory = client._eventFactoryDefault
      const evaluateInternalNative = (native) => {
        let value
        evaluator.evaluateCb(flag, Context.fromLDContext(native), (res) => {
          value = res.detail.value
        }, eventFactory)
        if (value === undefined) throw new Error("LaunchDarkly evaluator callback did not run synchronously")
        return value
      }

      const probeCtx = { kind: "user", key: "probe", country: "US", plan: "pro" }
      const probe = await client.variationDetail(FLAG_KEY, probeCtx, "<default>")
      if (probe.value !== "a") throw new Error(`probe evaluated to ${JSON.stringify(probe)}, expected "a"`)
      const probeRollout = await client.variationDetail(FLAG_KEY, { kind: "user", key: "probe", country: "DE" }, "<default>")
      if (probeRollout.reason?.kind !== "RULE_MATCH" || probeRollout.reason?.ruleId !== "half") {
        throw new Error(`rollout rule with no clauses did not match: ${JSON.stringify(probeRollout)}`)
      }
      if (evaluateInternalNative(probeCtx) !== "a") throw new Error("private evaluator path disagrees with variation()")

      return {
        name: pkg,
        version: versionOf(pkg),
        evaluatorVersion: versionOf("@launchdarkly/js-server-sdk-common"),
        sync: false,
        // Asynchronous only: LDClient#variation returns a Promise (no synchronous public API).
        evaluateAsync: (context) => evaluateNativeAsync(launchDarklyContext(context)),
        toNative: launchDarklyContext,
        evaluateNativeAsync,
        // Private synchronous path (not a public API): the evaluator without the client's
        // hook runner, Promise and event plumbing.
        evaluateInternalSync: (context) => evaluateInternalNative(launchDarklyContext(context)),
        evaluateInternalNative,
        close: async () => {
          client.close()
        }
      }
    } catch (e) {
      client.close()
      throw e
    }
  })
}

/**
 * The W2 peers, each set up once. Throws (naming the peer and the reason) when one cannot be
 * loaded or set up. Call `close()` on each entry when done (LaunchDarkly holds a client).
 *
 * `options.rule3Sentinel` (for check.mjs only, never for timing): rule 3 serves this value instead
 * of the 50/50 rollout, so which rule matched can be compared exactly across SDKs.
 */
export async function makePeers(options = {}) {
  const { rule3Sentinel } = options
  const peers = []
  try {
    peers.push(await makeFlagd(rule3Sentinel))
    peers.push(await makeLaunchDarkly(rule3Sentinel))
  } catch (e) {
    await Promise.all(peers.map((p) => p.close()))
    throw e
  }
  return peers
}
