import { createHash, timingSafeEqual } from "node:crypto";
import net from "node:net";
import type { CollectorCredentials } from "../ports.ts";

/**
 * How a DTU proves who it is: the secret in its registration packet must equal its collector's,
 * and its source address must be inside the collector's allowed networks when it has any.
 */

/** Equal secrets, compared in constant time (digests first, so lengths leak nothing either). */
export function secretMatches(expected: string, offered: string | undefined): boolean {
  if (!expected || offered === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(expected), digest(offered));
}

export class NetworkListError extends Error {}

/**
 * Parses allowed source networks: CIDR blocks or single addresses, IPv4 or IPv6, separated by
 * commas, spaces or new lines. Throws naming the first entry that is neither.
 */
export function parseNetworks(text: string | readonly string[]): net.BlockList {
  const entries = (typeof text === "string" ? text.split(/[\s,;]+/) : text).filter(Boolean);
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address = "", prefixText, extra] = entry.split("/");
    const type = net.isIPv4(address) ? "ipv4" : net.isIPv6(address) ? "ipv6" : undefined;
    const max = type === "ipv4" ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!type || extra !== undefined || !/^\d{1,3}$/.test(String(prefix)) || prefix > max)
      throw new NetworkListError(`"${entry}" is not a network (like 10.1.0.0/16) or an address`);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/** Whether a peer address is inside the networks (IPv4 peers on a dual-stack socket included). */
export function sourceAllowed(ip: string, networks: net.BlockList): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const address = mapped ?? ip;
  const type = net.isIPv4(address) ? "ipv4" : "ipv6";
  return net.isIP(address) !== 0 && networks.check(address, type);
}

function networkRefusal(networks: readonly string[], ip: string): string | undefined {
  try {
    return sourceAllowed(ip, parseNetworks(networks)) ? undefined : "source network not allowed";
  } catch {
    return "source network not allowed"; // a list that cannot be read lets nobody in
  }
}

/**
 * A DL/T 698.45 meter dialling in has no secret to show (its LINK login carries only its address):
 * it proves itself by where it dials from, the private APN its collector entry names. A meter
 * without allowed networks is refused, never served on its address alone.
 */
export function dialInRefusalOf(
  credentials: CollectorCredentials | undefined,
  ip: string,
): string | undefined {
  if (!credentials) return "unknown collector";
  const networks = credentials.allowedNetworks;
  if (!networks || networks.length === 0) return "dial-in meter has no allowed networks";
  return networkRefusal(networks, ip);
}

/** The reason to refuse a registration, or undefined when the collector proved who it is. */
export function refusalOf(
  credentials: CollectorCredentials | undefined,
  ip: string,
  secret: string | undefined,
): string | undefined {
  if (!credentials) return "unknown collector";
  if (!credentials.secret) return "collector has no secret";
  const networks = credentials.allowedNetworks;
  const refusal = networks && networks.length > 0 ? networkRefusal(networks, ip) : undefined;
  if (refusal) return refusal;
  return secretMatches(credentials.secret, secret) ? undefined : "bad secret";
}
