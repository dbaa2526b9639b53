import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import type { ServerAddress } from "./address.ts";
import { buildFrame, type Dlt698Frame } from "./frame.ts";

/**
 * Split frames (DL/T 698.45 §7.1.5, 分帧): an APDU longer than the link's frame size travels
 * in numbered blocks, the first marked "first", the last "last", the others "middle"; the
 * receiver confirms each block with an "ack" frame carrying the block number and no data.
 */
export interface SplitInput {
  /** Control byte of the frames (the split bit is set here). */
  control: number;
  server: string | ServerAddress;
  client?: number;
  apdu: Uint8Array;
  /** Largest APDU block per frame. */
  blockSize: number;
  preamble?: number;
}

/** One frame when the APDU fits, else its numbered blocks. */
export function buildSplitFrames(input: SplitInput): Uint8Array[] {
  const { apdu, blockSize } = input;
  if (!Number.isInteger(blockSize) || blockSize < 1)
    fail("bad-argument", "block size must be a positive integer");
  const base = {
    control: input.control,
    server: input.server,
    client: input.client,
    preamble: input.preamble,
  };
  if (apdu.length <= blockSize) return [buildFrame({ ...base, apdu })];
  const count = Math.ceil(apdu.length / blockSize);
  if (count > 0x1000) fail("bad-argument", `${count} blocks exceed the 4096 block numbers`);
  const frames: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const kind = i === 0 ? "first" : i === count - 1 ? "last" : "middle";
    frames.push(
      buildFrame({
        ...base,
        apdu: apdu.subarray(i * blockSize, (i + 1) * blockSize),
        split: { sequence: i, kind },
      }),
    );
  }
  return frames;
}

/** The acknowledgement of block `sequence` (sent by the receiving side, with its own control byte). */
export function buildSplitAck(input: {
  control: number;
  server: string | ServerAddress;
  client?: number;
  sequence: number;
}): Uint8Array {
  return buildFrame({ ...input, apdu: new Uint8Array(0), split: { sequence: input.sequence, kind: "ack" } });
}

export type ReassemblyStep =
  | { status: "complete"; apdu: Uint8Array }
  | { status: "need-more"; ackSequence: number }
  | { status: "ack"; sequence: number };

/**
 * Collects the blocks of one split APDU. Blocks must arrive in order (the sender waits for
 * each ack); a gap, a block before "first" or an APDU above `maxApduBytes` is a ProtocolError
 * and the collector starts over at the next "first".
 */
export class SplitReassembler {
  private blocks: Uint8Array[] = [];
  private size = 0;
  private next = -1;
  constructor(private readonly maxApduBytes = 65_536) {}

  push(frame: Dlt698Frame): ReassemblyStep {
    const split = frame.split;
    if (!split) return { status: "complete", apdu: frame.apdu };
    if (split.kind === "ack") return { status: "ack", sequence: split.sequence };
    if (split.kind === "first") this.reset();
    if (split.sequence !== this.next + 1 || (split.kind !== "first" && this.next < 0)) {
      const expected = this.next + 1;
      this.reset();
      fail(
        "bad-apdu",
        `split block ${split.sequence} (${split.kind}) arrived, block ${expected} was expected`,
      );
    }
    this.size += frame.apdu.length;
    if (this.size > this.maxApduBytes) {
      this.reset();
      fail("bad-length", `split APDU exceeds ${this.maxApduBytes} bytes`);
    }
    this.blocks.push(frame.apdu);
    this.next = split.sequence;
    if (split.kind !== "last") return { status: "need-more", ackSequence: split.sequence };
    const apdu = concatBytes(...this.blocks);
    this.reset();
    return { status: "complete", apdu };
  }

  private reset(): void {
    this.blocks = [];
    this.size = 0;
    this.next = -1;
  }
}
