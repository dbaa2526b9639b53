import type { DecodedField } from "../values.ts";
import type { ControlInfo, Dlt645Version } from "./control.ts";
import type { ErrorInfo } from "./error-byte.ts";
import type { RelayControlRequest } from "./relay.ts";
import type { StatusWord3 } from "./status-word.ts";

/** Decoded application content of a DL/T 645 frame, for both directions. */
export type Dlt645Message =
  | { kind: "read-request"; di: string; name: string | null; extra: string | null }
  | {
      kind: "read-reply";
      di: string;
      name: string | null;
      fields: DecodedField[];
      /** D5: more frames follow; send a follow-up read (0x12) to get them. */
      followUp: boolean;
      statusWord3?: StatusWord3;
    }
  | { kind: "read-follow-up-request"; di: string; name: string | null; seq: number }
  | {
      kind: "read-follow-up-reply";
      di: string;
      name: string | null;
      fields: DecodedField[];
      seq: number;
      followUp: boolean;
    }
  | { kind: "read-address-request" }
  | { kind: "read-address-reply"; address: string }
  | {
      kind: "write-request";
      di: string;
      name: string | null;
      passwordLevel: number;
      password: string;
      /** 2007 only; 1997 writes carry no operator code. */
      operator: string | null;
      fields: DecodedField[];
    }
  | { kind: "write-ack" }
  | { kind: "broadcast-time"; time: string | null; timeStatus: "ok" | "absent" | "invalid" }
  | { kind: "relay-control-request"; relay: RelayControlRequest }
  | { kind: "relay-control-ack" }
  | { kind: "error-reply"; error: ErrorInfo }
  | { kind: "other"; data: string };

export interface Dlt645Decoded {
  protocol: "dlt645";
  version: Dlt645Version;
  address: string;
  control: ControlInfo;
  message: Dlt645Message;
  /** Things that did not stop decoding but deserve a look (odd lengths, library quirks). */
  warnings: string[];
}
