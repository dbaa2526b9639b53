import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** Shortest signing key and data-encryption key production accepts. */
export const MIN_SECRET_LENGTH = 32;
export const MIN_CLIENT_SECRET_LENGTH = 16;

/** Values that are published in this repository or in the console family's documentation. */
const PUBLISHED = ["saber_secret", "saber", "meterline", "admin", "bladex", "blade"];

let estimator: Promise<ZxcvbnFactory> | undefined;
/**
 * zxcvbn with its common-password and keyboard lists, loaded on first use: only production checks
 * secrets, so the embedded default never pays for the word lists.
 */
const strength = () =>
  (estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(
    ([core, common]) =>
      new core.ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs }),
  ));

/** Bits of a string by the spread of its characters: repeats and few distinct characters score low. */
export function characterEntropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const length = [...value].length;
  let perCharacter = 0;
  for (const n of counts.values()) perCharacter -= (n / length) * Math.log2(n / length);
  return perCharacter * length;
}

/**
 * Why a machine secret (signing key, client secret) is too weak, or undefined when it is strong:
 * long enough, spread over many characters, no guessable pattern, not a published value.
 */
export async function weakSecretReason(
  value: string,
  minLength: number,
  minBits: number,
): Promise<string | undefined> {
  if (value.length < minLength) return `must be at least ${minLength} characters`;
  if (PUBLISHED.some((p) => value.toLowerCase().includes(p))) return "contains a published default";
  if (characterEntropyBits(value) < minBits) return "repeats too few distinct characters";
  // Sequences, keyboard walks and dictionary words: 10^20 guesses is ~66 bits.
  if ((await strength()).check(value).guessesLog10 < 20) return "follows a guessable pattern";
  return undefined;
}

/**
 * Why a person's password is too weak, or undefined: zxcvbn must rate it at least 3 of 4 ("safely
 * unguessable"), counting the account name and the product's names as known words.
 */
export async function weakPasswordReason(password: string, account: string): Promise<string | undefined> {
  if (password.length < 8) return "must be at least 8 characters";
  if (PUBLISHED.includes(password.toLowerCase()) || password.toLowerCase() === account.toLowerCase()) {
    return "is a known default";
  }
  if ((await strength()).check(password, [account, ...PUBLISHED]).score < 3) return "is too easy to guess";
  return undefined;
}

/** The configured secrets whose strength is judged: in production all, elsewhere a client secret if set. */
export interface ConfiguredSecrets {
  production: boolean;
  jwtSecret: string;
  dataKey: string;
  adminPassword: string;
  clientSecret?: string | undefined;
}

/** Whether `weakSecretProblem` has anything to judge (it loads zxcvbn's word lists when it has). */
export const hasSecretsToJudge = (secrets: ConfiguredSecrets) =>
  secrets.production || secrets.clientSecret !== undefined;

/**
 * Why the server must refuse to start with these secrets (the message names the setting), or
 * undefined when all are strong: the signing key, the administrator's password and the data key
 * in production, and the console client's secret whenever one is set.
 */
export async function weakSecretProblem(secrets: ConfiguredSecrets): Promise<string | undefined> {
  if (secrets.production) {
    const weakKey = await weakSecretReason(secrets.jwtSecret, MIN_SECRET_LENGTH, 128);
    if (weakKey) return `JWT_SECRET ${weakKey}; refusing to start with it.`;
    const weakPassword = await weakPasswordReason(secrets.adminPassword, "admin");
    if (weakPassword) return `ADMIN_PASSWORD ${weakPassword}; refusing to start with it.`;
    const weakDataKey = await weakSecretReason(secrets.dataKey, MIN_SECRET_LENGTH, 128);
    if (weakDataKey) return `DATA_ENCRYPTION_KEY ${weakDataKey}; refusing to start with it.`;
  }
  const weakClient =
    secrets.clientSecret && (await weakSecretReason(secrets.clientSecret, MIN_CLIENT_SECRET_LENGTH, 64));
  if (weakClient) return `CLIENT_SECRET ${weakClient}; refusing to start with it.`;
  return undefined;
}
