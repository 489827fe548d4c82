import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
/**
 * A Schema's decoder compiled into plain functions, for the rows a snapshot load reads by the
 * ten thousand: Effect's interpreter spends about a microsecond per struct (its Either per
 * property, its issue bookkeeping), five times what reading the rows costs. The compiled
 * function gives the same value as `Schema.decodeUnknownEither` for valid input (property-tested
 * against it, test/adapters/CompiledDecoder.test.ts) and `Invalid` otherwise; the caller then asks
 * Effect's decoder for the issue. AST nodes it does not know are handed to Effect's decoder.
 */

export const Invalid: unique symbol = Symbol.for("flagport/CompiledDecoder/Invalid")

type Decode = (input: unknown) => unknown

const hasOwn = Object.prototype.hasOwnProperty

/** Effect's own decoder for `ast` (nodes this file does not compile). */
const slow = (ast: AST.AST): Decode => {
  const decode = ParseResult.decodeUnknownEither(Schema.make(ast))
  return (input) => Either.getOrElse(decode(input), () => Invalid)
}

/** The members of a union of literals, as a Set. */
const literalSet = (types: ReadonlyArray<AST.AST>): ReadonlySet<unknown> | undefined =>
  types.every(AST.isLiteral) ? new Set<unknown>(types.map((t) => t.literal)) : undefined

/** Own enumerable keys of a plain object (JSON objects have no inherited enumerable ones). */
const keyCount = (input: object): number => {
  let count = 0
  for (const _ in input) count++
  return count
}

// A struct or array whose every part decodes to itself is answered as it came, with no copy:
// Effect's decoder would build an equal one, and rows read by the ten thousand are mostly that.
const structOf = (ast: AST.TypeLiteral): Decode => {
  const properties = ast.propertySignatures.map((ps) => ({ name: ps.name, optional: ps.isOptional, decode: compileAst(ps.type) }))
  return (input) => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) return Invalid
    let output: Record<PropertyKey, unknown> | undefined
    let present = 0
    for (let i = 0; i < properties.length; i++) {
      const { decode, name, optional } = properties[i]!
      const has = hasOwn.call(input, name)
      if (!has && optional) continue
      if (has) present++
      const raw: unknown = Reflect.get(input, name)
      const value = decode(raw)
      if (value === Invalid) return Invalid
      if (output === undefined && (value !== raw || !has)) output = copyOf(input, properties, i)
      if (output !== undefined) output[name] = value
    }
    if (output === undefined && present !== keyCount(input)) output = copyOf(input, properties, properties.length)
    return output ?? input
  }
}

/** The decoded properties before the `end`-th: equal to their input, as the caller checked. */
const copyOf = (input: object, properties: ReadonlyArray<{ readonly name: PropertyKey }>, end: number) => {
  const output: Record<PropertyKey, unknown> = {}
  for (let i = 0; i < end; i++) {
    const { name } = properties[i]!
    if (hasOwn.call(input, name)) output[name] = Reflect.get(input, name)
  }
  return output
}

const arrayOf = (item: Decode): Decode => (input) => {
  if (!Array.isArray(input)) return Invalid
  let output: Array<unknown> | undefined
  for (let i = 0; i < input.length; i++) {
    const raw: unknown = input[i]
    const value = item(raw)
    if (value === Invalid) return Invalid
    if (output === undefined && value !== raw) output = input.slice(0, i)
    if (output !== undefined) output.push(value)
  }
  return output ?? input
}

/** `Schema.parseJson()`'s own node: JSON.parse without the Either around it. */
const isParseJson = (ast: AST.Transformation) =>
  Option.contains(AST.getSchemaIdAnnotation(ast), AST.ParseJsonSchemaId) && AST.isStringKeyword(AST.encodedAST(ast.from)) && AST.isUnknownKeyword(ast.to)

const parseJson: Decode = (input) => {
  if (typeof input !== "string") return Invalid
  try {
    const value: unknown = JSON.parse(input)
    return value
  } catch {
    return Invalid
  }
}

const transformationOf = (ast: AST.Transformation): Decode => {
  if (isParseJson(ast)) return parseJson
  const from = compileAst(ast.from)
  const to = compileAst(ast.to)
  const { transformation } = ast
  if (AST.isComposeTransformation(transformation)) {
    return (input) => {
      const a = from(input)
      return a === Invalid ? Invalid : to(a)
    }
  }
  if (!AST.isFinalTransformation(transformation)) return slow(ast)
  const effectful = slow(ast)
  return (input) => {
    const a = from(input)
    if (a === Invalid) return Invalid
    const b = transformation.decode(a, AST.defaultParseOption, ast, input)
    // A transformation that answers an Effect (not an Either) runs through Effect's decoder.
    if (!Either.isEither(b)) return effectful(input)
    return Either.isLeft(b) ? Invalid : to(b.right)
  }
}

const compileNode = (ast: AST.AST): Decode => {
  switch (ast._tag) {
    case "StringKeyword":
      return (input) => (typeof input === "string" ? input : Invalid)
    case "NumberKeyword":
      return (input) => (typeof input === "number" ? input : Invalid)
    case "BooleanKeyword":
      return (input) => (typeof input === "boolean" ? input : Invalid)
    case "UndefinedKeyword":
      return (input) => (input === undefined ? input : Invalid)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (input) => input
    case "Literal":
      return (input) => (input === ast.literal ? input : Invalid)
    case "Union": {
      const literals = literalSet(ast.types)
      if (literals !== undefined) return (input) => (literals.has(input) ? input : Invalid)
      const members = ast.types.map(compileAst)
      return (input) => {
        for (const member of members) {
          const value = member(input)
          if (value !== Invalid) return value
        }
        return Invalid
      }
    }
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1 ? arrayOf(compileAst(ast.rest[0]!.type)) : slow(ast)
    case "TypeLiteral":
      return ast.indexSignatures.length === 0 ? structOf(ast) : slow(ast)
    case "Refinement": {
      const from = compileAst(ast.from)
      return (input) => {
        const value = from(input)
        return value === Invalid || Option.isSome(ast.filter(value, AST.defaultParseOption, ast)) ? Invalid : value
      }
    }
    case "Transformation":
      return transformationOf(ast)
    default:
      return slow(ast)
  }
}

/** Nodes carrying parse options or a decoding fallback change how Effect decodes them: left to it. */
const compileAst = (ast: AST.AST): Decode =>
  Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast)) ? slow(ast) : compileNode(ast)

/** `schema`'s decoder: the decoded value, or `Invalid`. */
export const compile = <A, I>(schema: Schema.Schema<A, I>): ((input: unknown) => A | typeof Invalid) =>
  // The one assertion: the compiled function decodes as `schema` does (see the test named above).
  compileAst(schema.ast) as (input: unknown) => A | typeof Invalid
