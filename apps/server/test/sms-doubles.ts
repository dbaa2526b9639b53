import { createHash, createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Local stand-ins of the Aliyun and Tencent Cloud SMS APIs. Each checks the request's signature
 * with its own code (written apart from the server's signing modules, from the providers' pages)
 * and answers with the bodies the providers document. `mode` makes them fail on purpose.
 */
export type DoubleMode = "ok" | "refuse" | "error500" | "hang";

export interface ReceivedSms {
  phones: string[];
  signName: string;
  templateId: string;
  params: string[] | Record<string, string>;
  signatureValid: boolean;
}

export interface SmsDouble {
  url: string;
  mode: DoubleMode;
  received: ReceivedSms[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json;charset=utf-8" });
  response.end(JSON.stringify(body));
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const server: Server = createServer((req, res) => {
    handler(req, res).catch((error: unknown) => answer(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** RFC 3986 encoding byte by byte, upper-case hex, as Aliyun's signature page describes it. */
function aliyunEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Aliyun dysmsapi SendSms: form POST, signature in the parameters, JSON answers. */
export async function startAliyunDouble(secrets: Record<string, string>): Promise<SmsDouble> {
  const seenNonces = new Set<string>();
  const state: SmsDouble = { url: "", mode: "ok", received: [], close: async () => {} };
  const http = await listen(async (request, response) => {
    const form = new URLSearchParams(await bodyOf(request));
    const params = Object.fromEntries(form);
    const requestId = randomUUID().toUpperCase();
    if (state.mode === "hang") return; // never answers
    const secret = secrets[params.AccessKeyId ?? ""];
    if (secret === undefined) {
      return answer(response, 404, {
        RequestId: requestId,
        Code: "InvalidAccessKeyId.NotFound",
        Message: "Specified access key is not found.",
      });
    }
    const canonical = Object.keys(params)
      .filter((k) => k !== "Signature")
      .sort()
      .map((k) => `${aliyunEncode(k)}=${aliyunEncode(params[k]!)}`)
      .join("&");
    const toSign = `${request.method}&${aliyunEncode("/")}&${aliyunEncode(canonical)}`;
    const expected = createHmac("sha1", `${secret}&`).update(toSign).digest("base64");
    const signatureValid = expected === params.Signature;
    state.received.push({
      phones: (params.PhoneNumbers ?? "").split(","),
      signName: params.SignName ?? "",
      templateId: params.TemplateCode ?? "",
      params: params.TemplateParam ? JSON.parse(params.TemplateParam) : {},
      signatureValid,
    });
    if (!signatureValid) {
      return answer(response, 400, {
        RequestId: requestId,
        HostId: "dysmsapi.aliyuncs.com",
        Code: "SignatureDoesNotMatch",
        Message: `Specified signature is not matched with our calculation. server string to sign is:${toSign}`,
      });
    }
    if (seenNonces.has(params.SignatureNonce ?? "")) {
      return answer(response, 400, {
        RequestId: requestId,
        Code: "SignatureNonceUsed",
        Message: "Specified signature nonce was used already.",
      });
    }
    seenNonces.add(params.SignatureNonce ?? "");
    if (params.Action !== "SendSms" || params.Version !== "2017-05-25") {
      return answer(response, 400, {
        RequestId: requestId,
        Code: "InvalidAction",
        Message: "Specified api is not found.",
      });
    }
    if (state.mode === "error500") {
      return answer(response, 500, {
        RequestId: requestId,
        Code: "InternalError",
        Message: "The request processing has failed due to some unknown error.",
      });
    }
    if (state.mode === "refuse") {
      return answer(response, 200, {
        RequestId: requestId,
        Code: "isv.BUSINESS_LIMIT_CONTROL",
        Message: "触发分钟级流控Permits:1",
      });
    }
    return answer(response, 200, {
      Message: "OK",
      RequestId: requestId,
      BizId: `${Date.now()}^0`,
      Code: "OK",
    });
  });
  state.url = http.url;
  state.close = http.close;
  return state;
}

const hmac256 = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();

/** Tencent Cloud SMS SendSms (API 3.0): JSON POST, TC3-HMAC-SHA256 Authorization header. */
export async function startTencentDouble(secrets: Record<string, string>): Promise<SmsDouble> {
  const state: SmsDouble = { url: "", mode: "ok", received: [], close: async () => {} };
  const http = await listen(async (request, response) => {
    const payload = await bodyOf(request);
    const requestId = randomUUID();
    const fail = (Code: string, Message: string) =>
      answer(response, 200, { Response: { Error: { Code, Message }, RequestId: requestId } });
    if (state.mode === "hang") return;
    const header = request.headers.authorization ?? "";
    const match =
      /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        header,
      );
    if (!match) return fail("AuthFailure.InvalidAuthorization", "Authorization header format error.");
    const [, secretId, date, service, signedHeaders, signature] = match as unknown as string[];
    const secret = secrets[secretId!];
    if (secret === undefined) return fail("AuthFailure.SecretIdNotFound", "The SecretId is not found.");
    const timestamp = Number(request.headers["x-tc-timestamp"]);
    const canonicalHeaders = signedHeaders!
      .split(";")
      .map(
        (name) =>
          `${name}:${String(request.headers[name] ?? "")
            .trim()
            .toLowerCase()}\n`,
      )
      .join("");
    const canonical = [
      request.method,
      "/",
      "",
      canonicalHeaders,
      signedHeaders,
      createHash("sha256").update(payload).digest("hex"),
    ].join("\n");
    const toSign = [
      "TC3-HMAC-SHA256",
      String(timestamp),
      `${date}/${service}/tc3_request`,
      createHash("sha256").update(canonical).digest("hex"),
    ].join("\n");
    const key = hmac256(hmac256(hmac256(`TC3${secret}`, date!), service!), "tc3_request");
    const signatureValid =
      createHmac("sha256", key).update(toSign).digest("hex") === signature &&
      new Date(timestamp * 1000).toISOString().slice(0, 10) === date &&
      service === "sms";
    const body = JSON.parse(payload) as {
      PhoneNumberSet: string[];
      SignName: string;
      TemplateId: string;
      TemplateParamSet: string[];
      SmsSdkAppId: string;
    };
    state.received.push({
      phones: body.PhoneNumberSet,
      signName: body.SignName,
      templateId: body.TemplateId,
      params: body.TemplateParamSet,
      signatureValid,
    });
    if (!signatureValid) {
      return fail(
        "AuthFailure.SignatureFailure",
        "The provided credentials could not be validated. Please check your signature is correct.",
      );
    }
    if (request.headers["x-tc-action"] !== "SendSms" || request.headers["x-tc-version"] !== "2021-01-11") {
      return fail("InvalidAction", "The action is not supported.");
    }
    if (state.mode === "error500") return answer(response, 502, "Bad Gateway");
    if (state.mode === "refuse")
      return fail("FailedOperation.InsufficientBalanceInSmsPackage", "套餐包余量不足。");
    return answer(response, 200, {
      Response: {
        SendStatusSet: body.PhoneNumberSet.map((phone) => ({
          SerialNo: `2028:${randomUUID()}`,
          PhoneNumber: phone,
          Fee: 1,
          SessionContext: "",
          Code: "Ok",
          Message: "send success",
          IsoCode: "CN",
        })),
        RequestId: requestId,
      },
    });
  });
  state.url = http.url;
  state.close = http.close;
  return state;
}

/**
 * Yunpian tpl_batch_send: a form with the account's apikey, comma-separated numbers, tpl_id and
 * tpl_value (`#key#=value` pairs, each side encoded). Answers one item per number; a bad key is the
 * whole request's HTTP 400 with code -1, as Yunpian's page shows. `refuse` is its frequency limit (33).
 */
export async function startYunpianDouble(apiKeys: readonly string[]): Promise<SmsDouble> {
  const state: SmsDouble = { url: "", mode: "ok", received: [], close: async () => {} };
  const http = await listen(async (request, response) => {
    const form = new URLSearchParams(await bodyOf(request));
    if (state.mode === "hang") return;
    const apikey = form.get("apikey") ?? "";
    const phones = (form.get("mobile") ?? "").split(",").filter(Boolean);
    // tpl_value decoded the way Yunpian's page describes: split on &, then each side decoded.
    const params: Record<string, string> = {};
    for (const pair of (form.get("tpl_value") ?? "").split("&").filter(Boolean)) {
      const [key = "", value = ""] = pair.split("=");
      params[decodeURIComponent(key).replace(/^#|#$/g, "")] = decodeURIComponent(value);
    }
    const signatureValid = apiKeys.includes(apikey);
    state.received.push({
      phones,
      signName: "",
      templateId: form.get("tpl_id") ?? "",
      params,
      signatureValid,
    });
    if (!signatureValid)
      return answer(response, 400, {
        http_status_code: 400,
        code: -1,
        msg: "非法的apikey",
        detail: "请检查的apikey是否正确",
      });
    if (state.mode === "error500")
      return answer(response, 500, { http_status_code: 500, code: -50, msg: "服务器错误" });
    const item = (mobile: string) =>
      state.mode === "refuse"
        ? { code: 33, msg: "超过频率", count: 0, fee: 0, unit: "RMB", mobile, sid: 0 }
        : { code: 0, msg: "发送成功", count: 1, fee: 0.05, unit: "RMB", mobile, sid: Date.now() };
    return answer(response, 200, {
      total_count: state.mode === "refuse" ? 0 : phones.length,
      total_fee: "0.0500",
      unit: "RMB",
      data: phones.map(item),
    });
  });
  state.url = http.url;
  state.close = http.close;
  return state;
}

/**
 * Qiniu SMS POST /v1/message: JSON with template_id, mobiles and parameters, and the "Qiniu
 * AccessKey:sign" Authorization header whose sign is checked here (HMAC-SHA1 over method, path,
 * Host, Content-Type and body, URL-safe base64 with padding), as Qiniu's signing page describes.
 */
export async function startQiniuDouble(secrets: Record<string, string>): Promise<SmsDouble> {
  const state: SmsDouble = { url: "", mode: "ok", received: [], close: async () => {} };
  const http = await listen(async (request, response) => {
    const payload = await bodyOf(request);
    if (state.mode === "hang") return;
    const match = /^Qiniu ([^:]+):(.+)$/.exec(request.headers.authorization ?? "");
    const secret = match ? secrets[match[1]!] : undefined;
    const data = `${request.method} ${request.url}\nHost: ${request.headers.host}\nContent-Type: ${request.headers["content-type"]}\n\n${payload}`;
    const expected =
      secret === undefined
        ? ""
        : createHmac("sha1", secret).update(data).digest("base64").replace(/\+/g, "-").replace(/\//g, "_");
    const signatureValid = match !== null && expected !== "" && expected === match[2];
    const body = JSON.parse(payload) as {
      template_id: string;
      mobiles: string[];
      parameters: Record<string, string>;
      signature_id?: string;
    };
    state.received.push({
      phones: body.mobiles,
      signName: body.signature_id ?? "",
      templateId: body.template_id,
      params: body.parameters,
      signatureValid,
    });
    const requestId = randomUUID();
    if (!signatureValid)
      return answer(response, 401, {
        request_id: requestId,
        error: "BadToken",
        message: "Your authorization token is invalid",
      });
    if (state.mode === "error500")
      return answer(response, 500, {
        request_id: requestId,
        error: "InternalServerError",
        message: "internal error",
      });
    if (state.mode === "refuse")
      return answer(response, 400, {
        request_id: requestId,
        error: "TemplateNotAvailable",
        message: "template not available",
      });
    return answer(response, 200, { job_id: `${Date.now()}` });
  });
  state.url = http.url;
  state.close = http.close;
  return state;
}
