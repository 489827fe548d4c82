/**
 * Whether the screen is phone-narrow (below 600 px): some lists show
 * cards there rather than a table that would scroll sideways. Follows the window as it is resized
 * or turned.
 */
import { useEffect, useState } from "preact/hooks"

export const PHONE_QUERY = "(max-width: 599.98px)"

export const usePhone = (): boolean => {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE_QUERY).matches)
  useEffect(() => {
    const query = window.matchMedia(PHONE_QUERY)
    const follow = () => setPhone(query.matches)
    follow()
    query.addEventListener("change", follow)
    return () => query.removeEventListener("change", follow)
  }, [])
  return phone
}
