/**
 * CJ/T 188-2004 control code: D7 direction (1 = meter reply), D6 abnormal, D5..D0 function;
 * functions with D5 = 1 are vendor-defined (the 2004 text: "1XXXXX 厂商自定义"), e.g. 0x2A
 * valve control in hupengwu/fox-edge-server-protocol (metering-domain.md §2.1).
 */
export const Fn = {
  READ_DATA: 0x01,
  READ_ADDRESS: 0x03,
  WRITE_DATA: 0x04,
  READ_KEY_VERSION: 0x09,
  WRITE_ADDRESS: 0x15,
  WRITE_BASE_READING: 0x16,
} as const;

const NAMES: Record<number, string> = {
  1: "read data",
  3: "read address",
  4: "write data",
  9: "read key version",
  21: "write address",
  22: "write meter base reading (mechanical-electrical sync)",
};

export interface Cjt188ControlInfo {
  raw: number;
  direction: "master->meter" | "meter->master";
  abnormal: boolean;
  function: number;
  functionName: string;
}

export function decodeControl(raw: number): Cjt188ControlInfo {
  const fn = raw & 0x3f;
  const hex = fn.toString(16).padStart(2, "0").toUpperCase();
  return {
    raw,
    direction: raw & 0x80 ? "meter->master" : "master->meter",
    abnormal: (raw & 0x40) !== 0,
    function: fn,
    functionName: NAMES[fn] ?? (fn & 0x20 ? `vendor function 0x${hex}` : `reserved function 0x${hex}`),
  };
}

export function replyControl(fn: number, abnormal = false): number {
  return 0x80 | (abnormal ? 0x40 : 0) | (fn & 0x3f);
}
