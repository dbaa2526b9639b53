import { describe } from "node:test";
import { checkDlt645Frames, type PublicFrameRow } from "../test-helpers.ts";

/** DL/T 645-1997 (and one 2007) frames from a public field log, with what they must decode to. */
const KTS = "KTS-Intek/DLT645:test-exchange-dlt645-97.log";

const ROWS: PublicFrameRow[] = [
  {
    source: KTS,
    hex: "68 95 32 06 00 00 00 68 81 06 43 C3 48 33 33 33 0B 16",
    version: "1997",
    kind: "read-reply",
    di: "9010",
    values: { "forward active energy total": "0.15 kWh" },
  },
  {
    source: KTS,
    hex: "68 95 32 06 00 00 00 68 81 06 43 C3 59 33 33 33 1C 16",
    version: "1997",
    kind: "read-reply",
    di: "9010",
    values: { "forward active energy total": "0.26 kWh" },
  },
  {
    source: KTS,
    hex: "68 95 32 06 00 00 00 68 81 06 43 C4 33 33 33 33 F7 16",
    version: "1997",
    kind: "read-reply",
    di: "9110",
    values: { "forward reactive energy total": "0.00 kvarh" },
  },
  {
    source: KTS,
    hex: "68 95 32 06 00 00 00 68 81 16 52 C3 6C 33 33 33 33 33 33 33 36 33 33 33 57 33 33 33 45 33 33 33 B7 16",
    version: "1997",
    kind: "read-reply",
    di: "901F",
    values: {
      total: "0.39 kWh",
      "tariff 1": "0.00 kWh",
      "tariff 2": "0.03 kWh",
      "tariff 3": "0.24 kWh",
      "tariff 4": "0.12 kWh",
    },
  },
  {
    source: KTS,
    hex: "FE FE FE FE 68 34 69 17 08 17 20 68 81 06 43 F3 39 39 3A 4C 78 16",
    version: "1997",
    kind: "read-reply",
    di: "C010",
    values: { "date and weekday": "2019-07-06" },
  },
  {
    source: KTS,
    hex: "FE FE FE FE 68 34 69 17 08 17 20 68 81 05 44 F3 37 55 55 61 16",
    version: "1997",
    kind: "read-reply",
    di: "C011",
    values: { time: "22:22:04" },
  },
  {
    source: KTS,
    hex: "FE FE FE FE 68 34 69 17 08 17 20 68 81 08 65 F3 67 9C 4A 3B 4A 53 C9 16",
    version: "1997",
    kind: "read-reply",
    di: "C032",
    values: { "meter number": "201708176934" },
  },
  {
    source: KTS,
    hex: "68 95 32 06 00 00 00 68 81 04 44 E9 33 33 B5 16",
    version: "1997",
    kind: "read-reply",
    di: "B611",
    values: { "voltage phase A": "0 V" },
  },
  {
    source: KTS,
    hex: "68 99 99 99 99 99 99 68 01 02 52 C3 7E 16",
    version: "1997",
    kind: "read-request",
    di: "901F",
  },
  {
    source: KTS,
    hex: "68 99 99 99 99 99 99 68 04 0a 43 F3 33 33 33 33 39 39 3A 4C 6E 16",
    version: "1997",
    kind: "write-request",
    di: "C010",
    values: { "date and weekday": "2019-07-06" },
  },
  {
    source: KTS,
    hex: "FE FE FE FE 68 34 69 17 08 17 20 68 C4 01 34 BC 16",
    version: "1997",
    kind: "error-reply",
  },
  {
    source: KTS,
    hex: "FE FE FE FE 68 99 99 99 99 99 99 68 13 00 79 16",
    version: "2007",
    kind: "read-address-request",
  },
];

describe("DL/T 645 frames from a public 1997 field log", () => checkDlt645Frames(ROWS));
