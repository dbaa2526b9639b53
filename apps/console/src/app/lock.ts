import { store } from "../store/store.ts";

/** js-md5 loads with the first lock or unlock, not with every page (the top bar holds the button). */
const hashOf = async (plain: string) => (await import("js-md5")).md5(plain);

/** Only a hash is kept in localStorage, so the lock password cannot be read back from it. */
export async function setLockPassword(plain: string): Promise<void> {
  store.setState({ lockPassword: await hashOf(plain) });
}

export function hasLockPassword(): boolean {
  return store.getState().lockPassword !== "";
}

/** Sets the lock flag; the guard then moves the user to /lock and keeps them there. */
export function lock(returnTo: string): void {
  store.setState({ isLock: true, lockReturn: returnTo });
}

/** Unlocks when the password matches; the lock password stays set for the next lock. */
export async function unlock(plain: string): Promise<boolean> {
  if ((await hashOf(plain)) !== store.getState().lockPassword) return false;
  store.setState({ isLock: false });
  return true;
}
