/**
 * `flagport/openfeature`: the OpenFeature server provider (`@openfeature/server-sdk` is a peer
 * dependency). See docs/guide/sdk.md.
 */
export { FlagportProvider } from "./FlagportProvider.js"
