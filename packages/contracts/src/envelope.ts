/** The Blade response envelope: every business endpoint answers with it (contract §2). */
export interface Envelope<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

/** The MyBatis-Plus page shape the console reads `records` and `total` from (contract §3). */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
  orders: { column: string; asc: boolean }[];
  searchCount: boolean;
  /**
   * Sent by resources whose counts are bounded (ResourceDef.count): false when the count stopped
   * early and `total` is only a lower bound (there are at least `total` rows; the console shows
   * "N+"), true when `total` is the exact count. Absent where counts are always exact.
   */
  totalExact?: boolean;
}

/** Body codes and their default messages (contract §4.1, blade-tool ResultCode). */
export const ResultCode = {
  SUCCESS: 200,
  FAILURE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  MEDIA_TYPE_NOT_SUPPORTED: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export const ResultMessage: Record<number, string> = {
  200: "操作成功",
  400: "业务异常",
  401: "请求未授权",
  403: "请求被拒绝",
  404: "404 没找到请求",
  405: "不支持当前请求方法",
  415: "不支持当前媒体类型",
  429: "请求过于频繁",
  500: "服务器异常",
};

/** Message of a data result whose payload is empty. */
export const NO_DATA_MESSAGE = "暂无承载数据";
