import * as StorageLayer from "../app/Composition.js"

/**
 * Every command that touches data builds the storage layer from DATABASE_URL. Building it
 * opens the database (creating a SQLite file's directory) and applies pending migrations;
 * closing its scope (when the command ends, or on SIGTERM) closes the connections.
 */
export const layer = StorageLayer.commandLayerConfig
