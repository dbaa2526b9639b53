import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import { after, before, describe, test } from "node:test";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";

/**
 * A request refused before its body was read (too large, no permission) must not leave the rest of
 * that body on a keep-alive connection: the client stops sending once it has its answer, and the next
 * request it sends on the same connection would wait behind bytes that never come (issue 41: 73 s,
 * then ECONNRESET). Real sockets, one connection at most, as a browser reuses them.
 */
describe("a refused request's connection serves the next request", () => {
  let server: TestServer;
  let token: string;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  before(async () => {
    server = await startTestServer();
    token = (await server.login()).access_token;
    await server.app.listen({ port: 0, host: "127.0.0.1" });
    port = (server.app.server.address() as { port: number }).port;
  });
  after(async () => {
    agent.destroy();
    await server.close();
  });

  /** Sends a request on the agent; answers its status within `ms`, or fails naming what hung. */
  const send = (
    what: string,
    options: { method: string; path: string; headers?: Record<string, string | number>; body?: Buffer },
    ms = 10_000,
  ) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, agent, ...options }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.setTimeout(ms, () => {
        req.destroy();
        reject(new Error(`${what}: no answer within ${ms} ms`));
      });
      // A refused upload may end its connection while the body is still on its way: that is the fix.
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (options.body && (error.code === "EPIPE" || error.code === "ECONNRESET")) resolve(-1);
        else reject(error);
      });
      if (options.body) req.write(options.body);
      req.end();
    });

  const health = () => send("the next request", { method: "GET", path: "/api/health" }, 5_000);

  test("an upload over the size limit: 400, and the next request on the connection is answered", async () => {
    const upload = multipartFile("big.txt", Buffer.alloc(11 * 1024 * 1024, 0x61));
    for (let round = 0; round < 3; round++) {
      const status = await send("the upload", {
        method: "POST",
        path: "/api/blade-resource/oss/endpoint/put-file",
        headers: {
          ...upload.headers,
          "content-length": upload.payload.length,
          "blade-auth": `bearer ${token}`,
          authorization: `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`,
        },
        body: upload.payload,
      });
      assert.ok(status === 400 || status === -1, `round ${round}: ${status}`);
      assert.equal(await health(), 200, `round ${round}`);
    }
  });

  test("an answered request whose body was read keeps its connection open", async () => {
    const connection = await new Promise<string | undefined>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, agent, method: "GET", path: "/api/health" },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.headers.connection));
        },
      );
      req.on("error", reject);
      req.end();
    });
    assert.equal(connection, "keep-alive");
  });

  test("an upload without a token: refused before its body is read, and the next request is answered", async () => {
    const upload = multipartFile("note.txt", Buffer.alloc(2 * 1024 * 1024, 0x62));
    for (let round = 0; round < 3; round++) {
      const status = await send("the upload", {
        method: "POST",
        path: "/api/blade-resource/oss/endpoint/put-file",
        headers: { ...upload.headers, "content-length": upload.payload.length },
        body: upload.payload,
      });
      assert.ok(status === 401 || status === -1, `round ${round}: ${status}`);
      assert.equal(await health(), 200, `round ${round}`);
    }
  });
});
