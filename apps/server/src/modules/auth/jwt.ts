import { createHmac, timingSafeEqual } from "node:crypto";

/** Compact HS256 JWTs: the tokens the contract's console stores and sends back (contract §5.3). */

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");
const HEADER = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

export interface JwtClaims {
  jti: string;
  exp: number;
  iat: number;
  [claim: string]: unknown;
}

export function signJwt(claims: JwtClaims, secret: string): string {
  const body = `${HEADER}.${b64url(JSON.stringify(claims))}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

/** Verifies signature, algorithm and expiry; undefined for anything that is not a valid token. */
export function verifyJwt(
  token: string,
  secret: string,
  nowSeconds = Date.now() / 1000,
): JwtClaims | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const head = JSON.parse(Buffer.from(header, "base64url").toString("utf8")) as { alg?: string };
    if (head.alg !== "HS256") return undefined;
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as JwtClaims;
    if (typeof claims.exp !== "number" || claims.exp <= nowSeconds || typeof claims.jti !== "string") {
      return undefined;
    }
    return claims;
  } catch {
    return undefined;
  }
}
