/** Types of lint/rooms.js (plain JavaScript, since eslint.config.js loads it), for the tests. */
export interface Room {
  /** The folder, from the repository's root. */
  readonly room: string
  /** Folders inside it that belong to it (not rooms of their own), relative to it. */
  readonly folders?: ReadonlyArray<string>
  /** What lives there, for the docs table. */
  readonly holds: string
  /** The rooms it may import: a room, or `X/**` for X and every room under it. */
  readonly mayImport: ReadonlyArray<string>
}
export declare const ROOMS: ReadonlyArray<Room>
export declare const ROOT: string
export declare const roomOf: (path: string) => string | undefined
export declare const allows: (from: string, to: string) => boolean
export declare const docsTable: () => string
export declare const plugin: { readonly rules: Record<string, unknown> }
