import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import { choiceOf } from "../../../src/domain/ChosenSchema.js"
/**
 * A Schema's decoder compiled into JavaScript source, for the rows a snapshot load reads by the
 * ten thousand: Effect's interpreter spends about a microsecond per struct, and a tree of closures
 * calling each other through one shared call site still costs twice what parsing the JSON does.
 * Generated code checks each property inline (`typeof v === "string"`), one function per struct.
 * The compiled function gives the same value as `Schema.decodeUnknownEither` for valid input
 * (property-tested against it, test/adapters/CompiledDecoder.test.ts; one exception, in `struct`:
 * symbol keys the schema does not name are kept) and `Invalid` otherwise; the
 * caller then asks Effect's decoder for the issue. AST nodes it does not know are handed to
 * Effect's decoder. docs/internals/decisions.md says why this is not a library.
 */

export const Invalid: unique symbol = Symbol.for("flagport/CompiledDecoder/Invalid")

type Decode = (input: unknown) => unknown

/** Effect's own decoder for `ast` (nodes this file does not compile). */
const slow = (ast: AST.AST): Decode => {
  const decode = ParseResult.decodeUnknownEither(Schema.make(ast))
  return (input) => Either.getOrElse(decode(input), () => Invalid)
}

/** `Schema.parseJson()`'s own node: JSON.parse without the Either around it. */
const isParseJson = (ast: AST.Transformation) =>
  Option.contains(AST.getSchemaIdAnnotation(ast), AST.ParseJsonSchemaId) && AST.isStringKeyword(AST.encodedAST(ast.from)) && AST.isUnknownKeyword(ast.to)

/**
 * What a node compiles to: a `check`, an expression over a variable that is true when its value
 * is valid and decodes to itself (no call, no copy), or `fn`, the name of a generated function
 * answering the decoded value or `Invalid`.
 */
type Emitted = { readonly check: (x: string) => string } | { readonly fn: string }

/** A value decoded whole by Effect's decoder (see `transformation`). */
class Done {
  constructor(readonly value: unknown) {}
}

/** A JavaScript literal for `value` when it has one that `===` compares as the value itself. */
const literalSource = (value: AST.LiteralValue): string | undefined =>
  typeof value === "string" || typeof value === "boolean" || value === null || (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0))
    ? JSON.stringify(value)
    : undefined

/**
 * Whether Effect's union decoder would pick `member` by a literal-valued property (as its
 * `getLiterals` does; a node it may look through and this file cannot is counted as such).
 */
const hasLiteralKeys = (member: AST.AST): boolean => {
  switch (member._tag) {
    case "TypeLiteral":
      return member.propertySignatures.some((ps) => !ps.isOptional && AST.isLiteral(AST.encodedAST(ps.type)))
    case "TupleType":
      return member.elements.some((element) => !element.isOptional && AST.isLiteral(AST.encodedAST(element.type)))
    case "Refinement":
    case "Transformation":
      return hasLiteralKeys(member.from)
    case "Declaration":
    case "Suspend":
      return true
    default:
      return false
  }
}

class Generator {
  readonly functions: Array<string> = []
  readonly refs: Array<unknown> = []
  private readonly seen = new Map<AST.AST, Emitted>()

  /** A name in the generated code for a value of this file (a function, a Set, an AST node). */
  ref(value: unknown): string {
    this.refs.push(value)
    return `r${this.refs.length - 1}`
  }

  private define(body: (name: string) => string): Emitted {
    const index = this.functions.push("") - 1
    this.functions[index] = body(`f${index}`)
    return { fn: `f${index}` }
  }

  /** Source that decodes `x` into `into`, returning `Invalid` from the enclosing function if it fails. */
  decodeInto(emitted: Emitted, x: string, into: string): string {
    return "check" in emitted
      ? `const ${into} = ${x}; if (!(${emitted.check(x)})) return Invalid;`
      : `const ${into} = ${emitted.fn}(${x}); if (${into} === Invalid) return Invalid;`
  }

  emit(ast: AST.AST): Emitted {
    let emitted = this.seen.get(ast)
    if (emitted === undefined) {
      // Nodes carrying parse options or a decoding fallback change how Effect decodes them: left to it.
      emitted = Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast))
        ? { fn: this.ref(slow(ast)) }
        : this.emitNode(ast)
      this.seen.set(ast, emitted)
    }
    return emitted
  }

  private emitNode(ast: AST.AST): Emitted {
    switch (ast._tag) {
      case "StringKeyword":
        return { check: (x) => `typeof ${x} === "string"` }
      case "NumberKeyword":
        return { check: (x) => `typeof ${x} === "number"` }
      case "BooleanKeyword":
        return { check: (x) => `typeof ${x} === "boolean"` }
      case "UndefinedKeyword":
        return { check: (x) => `${x} === undefined` }
      case "UnknownKeyword":
      case "AnyKeyword":
        return { check: () => "true" }
      case "Literal": {
        const source = literalSource(ast.literal) ?? this.ref(ast.literal)
        return { check: (x) => `${x} === ${source}` }
      }
      case "Union":
        return this.union(ast)
      case "TupleType":
        return ast.elements.length === 0 && ast.rest.length === 1 ? this.array(this.emit(ast.rest[0]!.type)) : { fn: this.ref(slow(ast)) }
      case "TypeLiteral":
        // `__proto__` read or written as a property would be the object's prototype: left to Effect.
        return ast.indexSignatures.length === 0 && ast.propertySignatures.every((ps) => ps.name !== "__proto__")
          ? this.struct(ast)
          : { fn: this.ref(slow(ast)) }
      case "Refinement":
        return this.refinement(ast)
      case "Transformation":
        return this.transformation(ast)
      case "Declaration":
        return this.declaration(ast)
      default:
        return { fn: this.ref(slow(ast)) }
    }
  }

  private union(ast: AST.Union): Emitted {
    // Effect tries first the members a literal-valued property picks out, then the others in
    // order; this file tries all in order, so such unions are left to Effect.
    if (ast.types.some(hasLiteralKeys)) return { fn: this.ref(slow(ast)) }
    const literals = ast.types.filter(AST.isLiteral)
    // A Set finds NaN, which no literal equals (`===`): such unions compare member by member below.
    if (literals.length === ast.types.length && !literals.some((t) => Number.isNaN(t.literal))) {
      const members = new Set<unknown>(literals.map((t) => t.literal))
      const set = this.ref(members)
      return { check: (x) => `${set}.has(${x})` }
    }
    const members = ast.types.map((t) => this.emit(t))
    const checks = members.flatMap((m) => ("check" in m ? [m.check] : []))
    // Members that all decode to themselves (`Schema.optional`'s `X | undefined`): one expression.
    if (checks.length === members.length) return { check: (x) => `(${checks.map((check) => check(x)).join(" || ")})` }
    return this.define((name) => {
      const tries = members.map((m) => ("check" in m ? `if (${m.check("x")}) return x;` : `v = ${m.fn}(x); if (v !== Invalid) return v;`))
      return `function ${name}(x) { let v; ${tries.join(" ")} return Invalid }`
    })
  }

  // An array or struct whose every part decodes to itself is answered as it came, with no copy:
  // Effect's decoder would build an equal one, and rows read by the ten thousand are mostly that.
  private array(item: Emitted): Emitted {
    if ("check" in item && item.check("e") === "true") return { check: (x) => `Array.isArray(${x})` }
    return this.define((name) =>
      "check" in item
        ? `function ${name}(x) { if (!Array.isArray(x)) return Invalid; for (let i = 0; i < x.length; i++) { const e = x[i]; if (!(${item.check("e")})) return Invalid } return x }`
        : `function ${name}(x) { if (!Array.isArray(x)) return Invalid; let out;
            for (let i = 0; i < x.length; i++) { const e = x[i]; const v = ${item.fn}(e); if (v === Invalid) return Invalid;
              if (out === undefined && v !== e) out = x.slice(0, i); if (out !== undefined) out.push(v) }
            return out ?? x }`
    )
  }

  private struct(ast: AST.TypeLiteral): Emitted {
    const properties = ast.propertySignatures.map((ps, i) => ({
      key: typeof ps.name === "string" ? JSON.stringify(ps.name) : this.ref(ps.name),
      optional: ps.isOptional,
      emitted: this.emit(ps.type),
      i
    }))
    // The input is answered as it came only when every key `for...in` lists is one the schema
    // names. Symbol keys it does not name are not looked for (rows and JSON have none): an input
    // with such a key keeps it, where Effect's decoder would drop it.
    const names = ast.propertySignatures.flatMap((ps) => (typeof ps.name === "string" ? [ps.name] : []))
    const named = names.length <= 8 ? (k: string) => (names.length === 0 ? "false" : names.map((n) => `${k} === ${JSON.stringify(n)}`).join(" || ")) : ((set: string) => (k: string) => `${set}.has(${k})`)(this.ref(new Set(names)))
    return this.define((name) => {
      const decodeEach = properties.map(({ emitted, i, key, optional }) => {
        const decode = `${this.decodeInto(emitted, `raw${i}`, `value${i}`)}${"check" in emitted ? "" : ` if (value${i} !== raw${i}) changed = true;`}`
        return optional
          ? `const has${i} = hasOwn.call(x, ${key}); let v${i}; if (has${i}) { const raw${i} = x[${key}]; ${decode} v${i} = value${i} }`
          : `const has${i} = hasOwn.call(x, ${key}); if (!has${i}) changed = true; const raw${i} = x[${key}]; ${decode} const v${i} = value${i};`
      })
      const build = properties.map(({ i, key, optional }) => (optional ? `if (has${i}) out[${key}] = v${i};` : `out[${key}] = v${i};`))
      return `function ${name}(x) {
        if (typeof x !== "object" || x === null || Array.isArray(x)) return Invalid
        let changed = false
        ${decodeEach.join("\n")}
        if (!changed) {
          for (const k in x) if (!(${named("k")})) { changed = true; break }
          if (!changed) return x
        }
        const out = {}
        ${build.join(" ")}
        return out
      }`
    })
  }

  private refinement(ast: AST.Refinement): Emitted {
    const from = this.emit(ast.from)
    const filter = this.ref((value: unknown) => Option.isSome(ast.filter(value, AST.defaultParseOption, ast)))
    if ("check" in from) return { check: (x) => `(${from.check(x)} && !${filter}(${x}))` }
    return this.define((name) => `function ${name}(x) { const v = ${from.fn}(x); return v === Invalid || ${filter}(v) ? Invalid : v }`)
  }

  /**
   * A declaration that says which of its type parameters decodes a value (src/domain/ChosenSchema.ts):
   * the chosen one, compiled; -1 refuses. Any other declaration is Effect's to decode.
   */
  private declaration(ast: AST.Declaration): Emitted {
    const choose = choiceOf(ast)
    if (choose === undefined) return { fn: this.ref(slow(ast)) }
    const members = ast.typeParameters.map((t) => this.emit(t))
    const pick = this.ref(choose)
    const cases = members.map((m, i) => `case ${i}: return ${"check" in m ? `${m.check("x")} ? x : Invalid` : `${m.fn}(x)`};`)
    return this.define((name) => `function ${name}(x) { switch (${pick}(x)) { ${cases.join(" ")} default: return Invalid } }`)
  }

  private transformation(ast: AST.Transformation): Emitted {
    if (isParseJson(ast)) {
      return this.define((name) => `function ${name}(x) { if (typeof x !== "string") return Invalid; try { return JSON.parse(x) } catch { return Invalid } }`)
    }
    const { transformation } = ast
    if (AST.isComposeTransformation(transformation)) {
      const from = this.emit(ast.from)
      const to = this.emit(ast.to)
      return this.define((name) => `function ${name}(x) { ${this.decodeInto(from, "x", "a")} ${this.decodeInto(to, "a", "b")} return b }`)
    }
    if (!AST.isFinalTransformation(transformation)) return { fn: this.ref(slow(ast)) }
    const from = this.emit(ast.from)
    const to = this.emit(ast.to)
    // A transformation that answers an Effect (not an Either) runs through Effect's decoder: its
    // whole answer comes back as `Done`, not to be decoded again by `to`.
    const effectful = slow(ast)
    const decode = this.ref((a: unknown, input: unknown) => {
      const b = transformation.decode(a, AST.defaultParseOption, ast, input)
      if (!Either.isEither(b)) {
        const value = effectful(input)
        return value === Invalid ? Invalid : new Done(value)
      }
      return Either.isLeft(b) ? Invalid : b.right
    })
    const done = this.ref(Done)
    return this.define((name) =>
      `function ${name}(x) { ${this.decodeInto(from, "x", "a")} const b = ${decode}(a, x); if (b === Invalid) return Invalid;
        if (b instanceof ${done}) return b.value; ${this.decodeInto(to, "b", "c")} return c }`
    )
  }
}

/** `schema`'s decoder: the decoded value, or `Invalid`. */
export const compile = <A, I>(schema: Schema.Schema<A, I>): ((input: unknown) => A | typeof Invalid) => {
  const generator = new Generator()
  const entry = generator.emit(schema.ast)
  const root = "check" in entry ? `function root(x) { return ${entry.check("x")} ? x : Invalid }` : `const root = ${entry.fn}`
  const refs = generator.refs.map((_, i) => `const r${i} = refs[${i}];`).join("\n")
  const source = `"use strict";\n${refs}\n${generator.functions.join("\n")}\n${root}\nreturn root`
  // The one assertion: the generated function decodes as `schema` does (see the test named above).
  return new Function("refs", "Invalid", "hasOwn", source)(generator.refs, Invalid, Object.prototype.hasOwnProperty) as (input: unknown) => A | typeof Invalid
}
