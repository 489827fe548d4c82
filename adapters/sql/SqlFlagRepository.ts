import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { SnapshotFlag } from "../../src/domain/evaluation/ConfigSnapshot.js"
import type { Flag, FlagType, Variation } from "../../src/domain/definitions/Flag.js"
import type { EnvironmentConfig, Prerequisite, Rule } from "../../src/domain/definitions/Targeting.js"
import { versionAfterWrite } from "../../src/domain/definitions/ConfigVersion.js"
import { FlagRepository } from "../../src/ports/FlagRepository.js"
import { NotFound, StorageError, VersionConflict } from "../../src/ports/StorageError.js"
import { boolParam, decodeRows, orDuplicate, orFail } from "./SqlSupport.js"

/**
 * Flags in two tables: flagport_flags (definition, variations as JSON text, version) and
 * flagport_flag_configs (one row per flag and environment, rules and prerequisites as JSON text, and
 * the version that environment serves: ConfigVersion.ts). A flag is written whole: its row, then its
 * configs replaced.
 */

interface FlagRow {
  readonly id: string
  readonly key: string
  readonly name: string
  readonly description: string | null
  readonly type: string
  readonly variations: string
  readonly version: number
  readonly created_at: string
  readonly updated_at: string
}

interface ConfigRow {
  readonly flag_id: string
  readonly environment_key: string
  readonly enabled: number | boolean
  readonly default_variation_key: string
  readonly off_variation_key: string
  readonly prerequisites: string
  readonly rules: string
  readonly config_version: number | string
}

interface SnapshotRow {
  readonly key: string
  readonly type: string
  readonly variations: string
  readonly enabled: number | boolean
  readonly default_variation_key: string
  readonly off_variation_key: string
  readonly prerequisites: string
  readonly rules: string
  readonly version: number | string
}

const toConfig = (row: ConfigRow): EnvironmentConfig => ({
  environmentKey: row.environment_key,
  enabled: Boolean(row.enabled),
  defaultVariationKey: row.default_variation_key,
  offVariationKey: row.off_variation_key,
  prerequisites: JSON.parse(row.prerequisites) as Array<Prerequisite>,
  rules: JSON.parse(row.rules) as Array<Rule>
})

const toFlag = (row: FlagRow, configs: ReadonlyArray<EnvironmentConfig>): Flag => ({
  id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  type: row.type as FlagType,
  variations: JSON.parse(row.variations) as Array<Variation>,
  configs,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: Number(row.version)
})

const toSnapshotFlag = (row: SnapshotRow): SnapshotFlag => ({
  key: row.key,
  type: row.type as FlagType,
  enabled: Boolean(row.enabled),
  variations: JSON.parse(row.variations) as Array<Variation>,
  defaultVariationKey: row.default_variation_key,
  offVariationKey: row.off_variation_key,
  prerequisites: JSON.parse(row.prerequisites) as Array<Prerequisite>,
  rules: JSON.parse(row.rules) as Array<Rule>,
  version: Number(row.version)
})

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
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
      const envs = yield* orFail(
        sql<{ readonly id: string; readonly key: string }>`SELECT id, key FROM flagport_environments WHERE project_id = ${projectId}`
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
    orFail(sql<{ readonly version: number }>`SELECT version FROM flagport_flags WHERE project_id = ${projectId} AND key = ${key}`).pipe(
      Effect.flatMap((rows): Effect.Effect<never, NotFound | VersionConflict> =>
        rows[0] === undefined
          ? Effect.fail(new NotFound({ entity: "flag", key }))
          : Effect.fail(new VersionConflict({ entity: "flag", key, current: Number(rows[0].version) }))
      )
    )

  /** Writes the definition columns if the stored version is `expectedVersion`; the flag's id, or why not. */
  const writeDefinition = (projectId: string, flag: Flag, expectedVersion: number) =>
    orFail(
      sql<{ readonly id: string }>`UPDATE flagport_flags SET
        name = ${flag.name},
        description = ${flag.description},
        variations = ${JSON.stringify(flag.variations)},
        version = ${flag.version},
        updated_at = ${flag.updatedAt}
        WHERE project_id = ${projectId} AND key = ${flag.key} AND version = ${expectedVersion}
        RETURNING id`
    ).pipe(Effect.flatMap((rows) => (rows[0] === undefined ? missedWrite(projectId, flag.key) : Effect.succeed(rows[0].id))))

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
      Effect.gen(function* () {
        const rows = yield* orFail(
          sql<FlagRow & Partial<ConfigRow>>`${flagsWithConfigs} WHERE f.project_id = ${projectId} ORDER BY f.seq, e.seq`
        )
        return yield* decodeRows([rows], (all) => {
          const flags: Array<Flag> = []
          let current: { row: FlagRow; configs: Array<EnvironmentConfig> } | undefined
          for (const row of all) {
            if (current === undefined || current.row.id !== row.id) {
              if (current !== undefined) flags.push(toFlag(current.row, current.configs))
              current = { row, configs: [] }
            }
            if (row.environment_key != null) current.configs.push(toConfig(row as ConfigRow))
          }
          if (current !== undefined) flags.push(toFlag(current.row, current.configs))
          return flags
        }).pipe(Effect.map((results) => results[0]!))
      }),

    // One round trip: the flag row joined with its configs (none when it has no environments).
    get: (projectId, key) =>
      Effect.gen(function* () {
        const rows = yield* orFail(
          sql<FlagRow & Partial<ConfigRow>>`${flagsWithConfigs} WHERE f.project_id = ${projectId} AND f.key = ${key} ORDER BY e.seq`
        )
        const first = rows[0]
        if (first === undefined) return Option.none<Flag>()
        const configs = yield* decodeRows(
          rows.filter((row) => row.environment_key != null),
          (row) => toConfig(row as ConfigRow)
        )
        const [flag] = yield* decodeRows([first], (row) => toFlag(row, configs))
        return Option.some(flag!)
      }),

    // The stored flag is read first: a configuration keeps its version when what it serves is unchanged.
    // The compare-and-set below then guarantees that what was read is what gets replaced.
    update: (projectId, flag, expectedVersion) =>
      Effect.gen(function* () {
        const rows = yield* orFail(
          sql<FlagRow & Partial<ConfigRow>>`${flagsWithConfigs} WHERE f.project_id = ${projectId} AND f.key = ${flag.key}`
        )
        const stored = yield* decodeRows(
          rows.filter((row) => row.environment_key != null),
          (row) => [row.environment_key!, { config: toConfig(row as ConfigRow), version: Number(row.config_version) }] as const
        )
        const before = yield* decodeRows(rows.slice(0, 1), (row) => JSON.parse(row.variations) as Array<Variation>)
        const storedConfigs = new Map(stored)
        const variations = { before: before[0] ?? [], after: flag.variations }
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
          sql<{ readonly id: string }>`SELECT id FROM flagport_environments
            WHERE project_id = ${projectId} AND key = ${environmentKey}`
        )
        const environmentId = env[0]?.id
        if (environmentId === undefined) return yield* new StorageError({ message: `Unknown environment '${environmentKey}'` })
        const flags = yield* orFail(
          sql<{ readonly id: string; readonly key: string; readonly version: number | string }>`SELECT id, key, version
            FROM flagport_flags WHERE project_id = ${projectId}`
        )
        const ids = new Map(flags.map((f) => [f.key, f.id]))
        // Each new configuration serves its flag's version after the bump below.
        const versions = new Map(flags.map((f) => [f.key, Number(f.version) + 1]))
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
          sql<{ readonly id: string }>`DELETE FROM flagport_flags WHERE project_id = ${projectId} AND key = ${key}${
            expectedVersion === undefined ? sql.literal("") : sql` AND version = ${expectedVersion}`
          } RETURNING id`
        )
        const id = rows[0]?.id
        if (id === undefined) return yield* missedWrite(projectId, key)
        // Configs go explicitly too, so correctness never depends on foreign-key enforcement.
        yield* orFail(sql`DELETE FROM flagport_flag_configs WHERE flag_id = ${id}`)
      }),

    snapshotFlags: (projectId, environmentKey) =>
      orFail(
        sql<SnapshotRow>`SELECT f.key, f.type, f.variations, c.version, c.enabled, c.default_variation_key, c.off_variation_key, c.prerequisites, c.rules
          FROM flagport_flags f
          JOIN flagport_flag_configs c ON c.flag_id = f.id
          JOIN flagport_environments e ON e.id = c.environment_id
          WHERE f.project_id = ${projectId} AND e.project_id = ${projectId} AND e.key = ${environmentKey}
          ORDER BY f.seq`
      ).pipe(Effect.flatMap((rows) => decodeRows(rows, toSnapshotFlag)))
  })
})

export const layer = Layer.effect(FlagRepository, make)
