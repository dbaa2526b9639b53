import { addressMatches } from "./address.ts";
import { FUNCTION_MASK } from "./control.ts";
import type { Dlt645Frame } from "./frame.ts";

/**
 * Does `reply` answer `request`? Same function, reply direction, and an address the request
 * selected — never assume equality when the request used AA wildcards (metering-domain.md §6
 * item 2). For reads the DI must match too; abnormal replies carry no DI.
 */
export function isReplyTo(reply: Dlt645Frame, request: Dlt645Frame): boolean {
  if ((reply.control & 0x80) === 0 || (request.control & 0x80) !== 0) return false;
  if ((reply.control & FUNCTION_MASK) !== (request.control & FUNCTION_MASK)) return false;
  if (!addressMatches(request.address, reply.address)) return false;
  const abnormal = (reply.control & 0x40) !== 0;
  const fn = request.control & FUNCTION_MASK;
  const isRead = fn === 0x11 || fn === 0x01 || fn === 0x12 || fn === 0x02;
  if (abnormal || !isRead) return true;
  const diLength = fn >= 0x11 ? Math.min(4, request.data.length) : 2;
  for (let i = 0; i < diLength; i++) if (reply.data[i] !== request.data[i]) return false;
  return true;
}
