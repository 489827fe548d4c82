// Global test setup. The storage issue adds the embedded PostgreSQL here.
export default async function setup() {
  return async () => {}
}
