import { SqlClient } from "@effect/sql"
import type { Row } from "@effect/sql/SqlConnection"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import { type Flag, FlagType, Variation } from "../../src/domain/definitions/Flag.js"
import { type EnvironmentConfig, Prerequisite, Rule } from "../../src/domain/definitions/Targeting.js"
import { versionAfterWrite } from "../../src/domain/definitions/ConfigVersion.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { NotFound, StorageError, VersionConflict } from "../../src/ports/StorageError.js"
import { rememberedReads } from "./decoding/RememberedReads.js"
import { decodeRows, IdRow, SqlBoolean, SqlInteger } from "./SqlRows.js"
import { boolParam, orDuplicate, orFail } from "./SqlSupport.js"

/**
 * Flags in two tables: flagport_flags (definition, variations as JSON text, version) and
 * flagport_flag_configs (one row per flag and environment, rules and prerequisites as JSON text, and
 * the version that environment serves: ConfigVersion.ts). A flag is written whole: its row, then its
 * configs replaced.
 */

/** The definition columns of flagport_flags. */
const FlagRow = Schema.Struct({
  id: Schema.String,
  key: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  type: FlagType,
  variations: Schema.parseJson(Schema.Array(Variation)),
  version: SqlInteger,
  created_at: Schema.String,
  updated_at: Schema.String
})

/** A flagport_flag_configs row joined with its flag's id (`id`) and its environment's key. */
const ConfigRow = Schema.Struct({
  id: Schema.String,
  environment_key: Schema.String,
  enabled: SqlBoolean,
  default_variation_key: Schema.String,
  off_variation_key: Schema.String,
  prerequisites: Schema.parseJson(Schema.Array(Prerequisite)),
  rules: Schema.parseJson(Schema.Array(Rule)),
  config_version: SqlInteger
})

/** One flag's definition merged with one environment's config: what `snapshotFlags` reads. */
const SnapshotRow = Schema.Struct({
  key: Schema.String,
  type: FlagType,
  variations: Schema.parseJson(Schema.Array(Variation)),
  enabled: SqlBoolean,
  default_variation_key: Schema.String,
  off_variation_key: Schema.String,
  prerequisites: Schema.parseJson(Schema.Array(Prerequisite)),
  rules: Schema.parseJson(Schema.Array(Rule)),
  version: SqlInteger
})

/** The columns of a config row the joins bring (the others are flagport_flags'). */
const configColumns = {
  environment_key: "flagport_environments",
  enabled: "flagport_flag_configs",
  default_variation_key: "flagport_flag_configs",
  off_variation_key: "flagport_flag_configs",
  prerequisites: "flagport_flag_configs",
  rules: "flagport_flag_configs",
  config_version: "flagport_flag_configs",
  version: "flagport_flag_configs"
}

const decodeFlags = decodeRows(FlagRow, "flagport_flags")
const decodeConfigs = decodeRows(ConfigRow, "flagport_flags", configColumns)
const decodeSnapshot = decodeRows(SnapshotRow, "flagport_flags", configColumns)
const decodeIds = decodeRows(IdRow, "flagport_flags")
const decodeEnvironmentIds = decodeRows(Schema.Struct({ id: Schema.String, key: Schema.String }), "flagport_environments")
const decodeVersions = decodeRows(Schema.Struct({ key: Schema.String, id: Schema.String, version: SqlInteger }), "flagport_flags")

const toConfig = (row: typeof ConfigRow.Type): EnvironmentConfig => ({
  environmentKey: row.environment_key,
  enabled: row.enabled,
  defaultVariationKey: row.default_variation_key,
  offVariationKey: row.off_variation_key,
  prerequisites: row.prerequisites,
  rules: row.rules,
  version: row.config_version
})

const toFlag = (row: typeof FlagRow.Type, configs: ReadonlyArray<EnvironmentConfig>): Flag => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  type: row.type,
  variations: row.variations,
  configs,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version
})

const toSnapshotFlag = (row: typeof SnapshotRow.Type): SnapshotFlag => ({
  key: row.key,
  type: row.type,
  enabled: row.enabled,
  variations: row.variations,
  defaultVariationKey: row.default_variation_key,
  offVariationKey: row.off_variation_key,
  prerequisites: row.prerequisites,
  rules: row.rules,
  version: row.version
})

/** The rows of a flags-with-configs query: each flag's first row, and the rows that carry a config. */
const splitJoined = (rows: ReadonlyArray<Row>) => ({
  flags: rows.filter((row, i) => i === 0 || rows[i - 1]!.id !== row.id),
  configs: rows.filter((row) => row.environment_key !== null && row.environment_key !== undefined)
})

/** A stored config with the version it serves (ConfigVersion.ts). */
interface StoredConfig {
  readonly config: EnvironmentConfig
  readonly version: number
}

/** Flags with their configs, in the order of the rows (a flag's configs follow its first row). */
const decodeJoined = (rows: ReadonlyArray<Row>) => {
  const split = splitJoined(rows)
  return Effect.zipWith(decodeFlags(split.flags), decodeConfigs(split.configs), (flags, configs) => {
    const joined = flags.map((flag) => ({ flag, configs: [] as Array<StoredConfig> }))
    // Configs come in their flags' order, so each belongs to the current flag or a later one
    // (a row out of that order is looked up from the start).
    let at = 0
    for (const row of configs) {
      while (at < joined.length && joined[at]!.flag.id !== row.id) at++
      if (at === joined.length) at = Math.max(0, joined.findIndex((entry) => entry.flag.id === row.id))
      const entry = joined[at]
      if (entry?.flag.id === row.id) entry.configs.push({ config: toConfig(row), version: row.config_version })
    }
    return joined
  })
}

/** Flags as they are read: each configuration with the version it serves. */
const decodeFlagList = (rows: ReadonlyArray<Row>) =>
  Effect.map(decodeJoined(rows), (flags) => flags.map(({ configs, flag }) => toFlag(flag, configs.map((c) => c.config))))

/**
 * Text of snapshot rows remembered over all environments (characters): two environments of 10,000
 * flags like bench/storage-ab.ts's (about 630 characters a row).
 */
const SNAPSHOT_MEMORY_CHARS = 16 * 1024 * 1024

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A reload after a write decodes only the rows that changed since the last read (decoding/RememberedReads.ts).
  const snapshotReads = rememberedReads({
    columns: Object.keys(SnapshotRow.fields),
    identity: (row) => row["key"],
    decode: (rows) => Effect.map(decodeSnapshot(rows), (decoded) => decoded.map(toSnapshotFlag)),
    maxChars: SNAPSHOT_MEMORY_CHARS
  })
  const dialect = sql.onDialectOrElse({ sqlite: () => "sqlite", pg: () => "pg", orElse: () => "other" })

  /** Flags joined with their configs (config columns null for a flag without any); add WHERE and ORDER BY. */
  const flagsWithConfigs = sql.literal(`SELECT f.id, f.key, f.name, f.description, f.type, f.variations, f.version,
      f.created_at, f.updated_at, e.key AS environment_key, c.enabled, c.default_variation_key, c.off_variation_key, c.prerequisites, c.rules,
      c.version AS config_version
    FROM flagport_flags f
    LEFT JOIN flagport_flag_configs c ON c.flag_id = f.id
    LEFT JOIN flagport_environments e ON e.id = c.environment_id`)

  /** A flagport_flag_configs row; `version` is the flag's version that environment serves. */
  const configRow = (flagId: string, environmentId: string, config: EnvironmentConfig, version: number) => ({
    flag_id: flagId,
    environment_id: environmentId,
    enabled: boolParam(dialect, config.enabled),
    default_variation_key: config.defaultVariationKey,
    off_variation_key: config.offVariationKey,
    prerequisites: JSON.stringify(config.prerequisites ?? []),
    rules: JSON.stringify(config.rules),
    version
  })

  /** Writes every config of a flag, each at `versionOf` it; each must name an environment of the project. */
  const insertConfigs = (projectId: string, flagId: string, flag: Flag, versionOf: (config: EnvironmentConfig) => number) =>
    Effect.gen(function* () {
      if (flag.configs.length === 0) return
      const envs = yield* orFail(sql`SELECT id, key FROM flagport_environments WHERE project_id = ${projectId}`).pipe(
        Effect.flatMap(decodeEnvironmentIds)
      )
      const envIds = new Map(envs.map((e) => [e.key, e.id]))
      const rows = []
      for (const config of flag.configs) {
        const environmentId = envIds.get(config.environmentKey)
        if (environmentId === undefined) {
          return yield* new StorageError({ message: `Unknown environment '${config.environmentKey}' in flag '${flag.key}'` })
        }
        rows.push(configRow(flagId, environmentId, config, versionOf(config)))
      }
      yield* orFail(sql`INSERT INTO flagport_flag_configs ${sql.insert(rows)}`)
    })

  const boolType = sql.literal(dialect === "pg" ? "BOOLEAN" : "INTEGER")

  /** Why a compare-and-set statement touched no row: the flag is gone, or at another version. */
  const missedWrite = (projectId: string, key: string) =>
    orFail(sql`SELECT key, id, version FROM flagport_flags WHERE project_id = ${projectId} AND key = ${key}`).pipe(
      Effect.flatMap(decodeVersions),
      Effect.flatMap((rows): Effect.Effect<never, NotFound | VersionConflict> =>
        rows[0] === undefined
          ? Effect.fail(new NotFound({ entity: "flag", key }))
          : Effect.fail(new VersionConflict({ entity: "flag", key, current: rows[0].version }))
      )
    )

  /** Writes the definition columns if the stored version is `expectedVersion`; the flag's id, or why not. */
  const writeDefinition = (projectId: string, flag: Flag, expectedVersion: number) =>
    orFail(
      sql`UPDATE flagport_flags SET
        name = ${flag.name},
        description = ${flag.description},
        variations = ${JSON.stringify(flag.variations)},
        version = ${flag.version},
        updated_at = ${flag.updatedAt}
        WHERE project_id = ${projectId} AND key = ${flag.key} AND version = ${expectedVersion}
        RETURNING id`
    ).pipe(
      Effect.flatMap(decodeIds),
      Effect.flatMap((rows) => (rows[0] === undefined ? missedWrite(projectId, flag.key) : Effect.succeed(rows[0].id)))
    )

  return FlagRepository.of({
    insert: (projectId, flag) =>
      Effect.gen(function* () {
        yield* orDuplicate("flag", flag.key)(
          sql`INSERT INTO flagport_flags ${sql.insert({
            id: flag.id,
            project_id: projectId,
            key: flag.key,
            name: flag.name,
            description: flag.description,
            type: flag.type,
            variations: JSON.stringify(flag.variations),
            version: flag.version,
            created_at: flag.createdAt,
            updated_at: flag.updatedAt
          })}`
        )
        yield* insertConfigs(projectId, flag.id, flag, () => flag.version)
      }),

    // One query (one consistent read on any isolation level): flags joined with their configs.
    list: (projectId) =>
      orFail(sql`${flagsWithConfigs} WHERE f.project_id = ${projectId} ORDER BY f.seq, e.seq`).pipe(Effect.flatMap(decodeFlagList)),

    // Prerequisites are stored as JSON text, "[]" when there are none (our writer and the migration's default).
    listRequiring: (projectId) =>
      orFail(
        sql`${flagsWithConfigs} WHERE f.project_id = ${projectId}
          AND f.id IN (SELECT flag_id FROM flagport_flag_configs WHERE prerequisites <> '[]') ORDER BY f.seq, e.seq`
      ).pipe(Effect.flatMap(decodeFlagList)),

    // One round trip: the flag row joined with its configs (none when it has no environments).
    get: (projectId, key) =>
      orFail(sql`${flagsWithConfigs} WHERE f.project_id = ${projectId} AND f.key = ${key} ORDER BY e.seq`).pipe(
        Effect.flatMap(decodeFlagList),
        Effect.map((flags) => Option.fromNullable(flags[0]))
      ),

    // The stored flag is read first: a configuration keeps its version when what it serves is unchanged.
    // The compare-and-set below then guarantees that what was read is what gets replaced.
    update: (projectId, flag, expectedVersion) =>
      Effect.gen(function* () {
        const [before] = yield* orFail(sql`${flagsWithConfigs} WHERE f.project_id = ${projectId} AND f.key = ${flag.key}`).pipe(
          Effect.flatMap(decodeJoined)
        )
        const storedConfigs = new Map((before?.configs ?? []).map((stored) => [stored.config.environmentKey, stored]))
        const variations = { before: before?.flag.variations ?? [], after: flag.variations }
        const id = yield* writeDefinition(projectId, flag, expectedVersion)
        yield* orFail(sql`DELETE FROM flagport_flag_configs WHERE flag_id = ${id}`)
        yield* insertConfigs(projectId, id, flag, (config) =>
          versionAfterWrite(flag.version, variations, storedConfigs.get(config.environmentKey), config)
        )
      }),

    // The PUT-targeting path: definition + one upserted config, two statements.
    updateConfig: (projectId, flag, environmentKey, expectedVersion) =>
      Effect.gen(function* () {
        const config = flag.configs.find((c) => c.environmentKey === environmentKey)
        if (config === undefined) {
          return yield* new StorageError({ message: `Flag '${flag.key}' has no config for '${environmentKey}'` })
        }
        const id = yield* writeDefinition(projectId, flag, expectedVersion)
        const written = yield* orFail(
          sql`INSERT INTO flagport_flag_configs
              (flag_id, environment_id, enabled, default_variation_key, off_variation_key, prerequisites, rules, version)
            SELECT ${id}, e.id, CAST(${boolParam(dialect, config.enabled)} AS ${boolType}),
              ${config.defaultVariationKey}, ${config.offVariationKey}, ${JSON.stringify(config.prerequisites ?? [])}, ${JSON.stringify(config.rules)},
              ${flag.version}
            FROM flagport_environments e WHERE e.project_id = ${projectId} AND e.key = ${environmentKey}
            ON CONFLICT (flag_id, environment_id) DO UPDATE SET
              enabled = excluded.enabled,
              default_variation_key = excluded.default_variation_key,
              off_variation_key = excluded.off_variation_key,
              prerequisites = excluded.prerequisites,
              rules = excluded.rules,
              version = excluded.version
            RETURNING flag_id`
        )
        if (written.length === 0) {
          return yield* new StorageError({ message: `Unknown environment '${environmentKey}' in flag '${flag.key}'` })
        }
      }),

    addEnvironmentConfigs: (projectId, environmentKey, configs, updatedAt) =>
      Effect.gen(function* () {
        const env = yield* orFail(
          sql`SELECT id, key FROM flagport_environments WHERE project_id = ${projectId} AND key = ${environmentKey}`
        ).pipe(Effect.flatMap(decodeEnvironmentIds))
        const environmentId = env[0]?.id
        if (environmentId === undefined) return yield* new StorageError({ message: `Unknown environment '${environmentKey}'` })
        const flags = yield* orFail(sql`SELECT key, id, version FROM flagport_flags WHERE project_id = ${projectId}`).pipe(
          Effect.flatMap(decodeVersions)
        )
        const ids = new Map(flags.map((f) => [f.key, f.id]))
        // Each new configuration serves its flag's version after the bump below.
        const versions = new Map(flags.map((f) => [f.key, f.version + 1]))
        if (flags.length !== configs.length || configs.some((c) => !ids.has(c.flagKey))) {
          return yield* new StorageError({ message: "Configs do not match the project's flags" })
        }
        // Multi-row inserts of 500 rows (4,000 parameters) stay far below both engines' limits.
        for (let start = 0; start < configs.length; start += 500) {
          const rows = configs
            .slice(start, start + 500)
            .map(({ config, flagKey }) => configRow(ids.get(flagKey)!, environmentId, config, versions.get(flagKey)!))
          yield* orFail(sql`INSERT INTO flagport_flag_configs ${sql.insert(rows)}`)
        }
        yield* orFail(
          sql`UPDATE flagport_flags SET version = version + 1, updated_at = ${updatedAt} WHERE project_id = ${projectId}`
        )
      }),

    remove: (projectId, key, expectedVersion) =>
      Effect.gen(function* () {
        // The flag row goes first, in the one statement that checks the version.
        const rows = yield* orFail(
          sql`DELETE FROM flagport_flags WHERE project_id = ${projectId} AND key = ${key}${
            expectedVersion === undefined ? sql.literal("") : sql` AND version = ${expectedVersion}`
          } RETURNING id`
        ).pipe(Effect.flatMap(decodeIds))
        const id = rows[0]?.id
        if (id === undefined) return yield* missedWrite(projectId, key)
        // Configs go explicitly too, so correctness never depends on foreign-key enforcement.
        yield* orFail(sql`DELETE FROM flagport_flag_configs WHERE flag_id = ${id}`)
      }),

    snapshotFlags: (projectId, environmentKey) =>
      orFail(
        sql`SELECT f.key, f.type, f.variations, c.version, c.enabled, c.default_variation_key, c.off_variation_key, c.prerequisites, c.rules
          FROM flagport_flags f
          JOIN flagport_flag_configs c ON c.flag_id = f.id
          JOIN flagport_environments e ON e.id = c.environment_id
          WHERE f.project_id = ${projectId} AND e.project_id = ${projectId} AND e.key = ${environmentKey}
          ORDER BY f.seq`
      ).pipe(Effect.flatMap((rows) => snapshotReads(`${projectId}\u0000${environmentKey}`, rows)))
  })
})

export const layer = Layer.effect(FlagRepository, make)
