import type { Qgdw1376Decoded } from "./messages.ts";

/**
 * Does `reply` answer `request`? The same terminal (area and A2), the terminal's direction,
 * RSEQ equal to the request's PSEQ, and the request's AFN or AFN 00 (confirm / deny).
 */
export function isReplyTo(request: Qgdw1376Decoded, reply: Qgdw1376Decoded): boolean {
  return (
    reply.control.direction === "terminal->master" &&
    request.control.direction === "master->terminal" &&
    reply.address.area === request.address.area &&
    (request.address.group || reply.address.terminal === request.address.terminal) &&
    reply.seq.seq === request.seq.seq &&
    (reply.afn === request.afn || reply.afn === 0x00)
  );
}
