import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/**
 * A full garbage collection, then a turn (a WeakRef read in this turn keeps its target alive until
 * the turn ends). `--expose-gc` is set here at run time, so the suite needs no flag of its own.
 */
export const collectGarbage = async (): Promise<void> => {
  setFlagsFromString("--expose-gc")
  const gc = runInNewContext("gc") as () => void
  for (let i = 0; i < 3; i++) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0))
    gc()
  }
}
