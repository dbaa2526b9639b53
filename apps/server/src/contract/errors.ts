import { ResultMessage } from "@meterline/contracts";

/**
 * A failure the caller should see: HTTP status and body code, with a message that names the field
 * when input is at fault. Thrown from services; the error handler turns it into the envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly code: number = status,
  ) {
    super(message ?? ResultMessage[code] ?? ResultMessage[400]!);
    this.name = "ApiError";
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message?: string) => new ApiError(401, message);
export const forbidden = (message?: string) => new ApiError(403, message);
export const notFound = (message?: string) => new ApiError(404, message);

/** Missing required parameter, in the contract's wording (contract §4.1). */
export const missingParam = (name: string) => new ApiError(400, `缺少必要的请求参数: ${name}`);
/** Wrong type or format of a parameter, in the contract's wording. */
export const badParam = (name: string) => new ApiError(400, `请求参数格式错误: ${name}`);
