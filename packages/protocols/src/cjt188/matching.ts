import type { Cjt188Frame } from "./frame.ts";

/**
 * Does `reply` answer `request`? Reply direction, same function, the SER echoed (§6 item 7),
 * the same DI in either byte order, and the address unless the request was broadcast (AA).
 */
export function isReplyTo(reply: Cjt188Frame, request: Cjt188Frame): boolean {
  if ((reply.control & 0x80) === 0 || (request.control & 0x80) !== 0) return false;
  if ((reply.control & 0x3f) !== (request.control & 0x3f)) return false;
  if (!/^A+$/.test(request.address) && request.address !== reply.address) return false;
  const abnormal = (reply.control & 0x40) !== 0;
  if (abnormal) return reply.data[0] === request.data[2];
  if (reply.data.length < 3 || request.data.length < 3) return false;
  const [r0, r1, rSer] = reply.data;
  const [q0, q1, qSer] = request.data;
  const sameDi = (r0 === q0 && r1 === q1) || (r0 === q1 && r1 === q0);
  return sameDi && rSer === qSer;
}
