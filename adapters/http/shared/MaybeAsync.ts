/**
 * The plain-function style of the hot paths (lane routes, authentication): failures are thrown,
 * and a value comes now or later, so the path stays synchronous while every cache hits (no
 * promise, no microtask) and only goes asynchronous when a cache must be (re)loaded.
 */
import * as Either from "effect/Either"
export type MaybeAsync<A> = A | Promise<A>

export const andThen = <A, B>(value: MaybeAsync<A>, f: (a: A) => MaybeAsync<B>): MaybeAsync<B> => (value instanceof Promise ? value.then(f) : f(value))

/** The right side, or the left thrown. */
export const unwrap = <A>(either: Either.Either<A, { readonly _tag: string }>): A => {
  if (Either.isLeft(either)) throw either.left
  return either.right
}
