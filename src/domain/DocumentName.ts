import * as SchemaAST from "effect/SchemaAST"
/**
 * The name a schema takes in generated documents (an OpenAPI component, hence a named type in
 * generated clients). Only JSON Schema generation reads it: unlike `identifier`, it never shows in
 * decode error messages, whose wording the API fixes.
 */
export const documentName = (name: string) => ({ [SchemaAST.JSONIdentifierAnnotationId]: name })
