import { type Envelope, NO_DATA_MESSAGE, type Page, ResultCode, ResultMessage } from "@meterline/contracts";

/** A data result (contract §2): empty data keeps the key and says so in `msg`. */
export function ok<T>(data: T, msg?: string): Envelope<T | Record<string, never>> {
  const empty = data === null || data === undefined;
  return {
    code: ResultCode.SUCCESS,
    success: true,
    data: empty ? {} : data,
    msg: msg ?? (empty ? NO_DATA_MESSAGE : ResultMessage[200]!),
  };
}

/** A status result with a custom success message (`R.success("...")`). */
export function done(msg = ResultMessage[200]!): Envelope<Record<string, never>> {
  return { code: ResultCode.SUCCESS, success: true, data: {}, msg };
}

export function failure(code: number, msg?: string): Envelope<Record<string, never>> {
  return { code, success: false, data: {}, msg: msg ?? ResultMessage[code] ?? ResultMessage[400]! };
}

/**
 * The page shape of contract §3; `pages` is 0 when size is 0. `totalExact` is sent by resources
 * whose counts are bounded: false when `total` is a lower bound (Page.totalExact).
 */
export function page<T>(
  records: T[],
  total: number,
  current: number,
  size: number,
  totalExact?: boolean,
): Page<T> {
  return {
    records,
    total,
    size,
    current,
    pages: size > 0 ? Math.ceil(total / size) : 0,
    orders: [],
    searchCount: true,
    ...(totalExact === undefined ? {} : { totalExact }),
  };
}
