import { md5 } from "js-md5";
import { store } from "../store/store.ts";

/** Only a hash is kept in localStorage, so the lock password cannot be read back from it. */
export function setLockPassword(plain: string): void {
  store.setState({ lockPassword: md5(plain) });
}

export function hasLockPassword(): boolean {
  return store.getState().lockPassword !== "";
}

/** Sets the lock flag; the guard then moves the user to /lock and keeps them there. */
export function lock(returnTo: string): void {
  store.setState({ isLock: true, lockReturn: returnTo });
}

/** Unlocks when the password matches; the lock password stays set for the next lock. */
export function unlock(plain: string): boolean {
  if (md5(plain) !== store.getState().lockPassword) return false;
  store.setState({ isLock: false });
  return true;
}
