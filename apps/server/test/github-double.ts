import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { freePort } from "./helpers.ts";

export const GITHUB_CLIENT = { id: "Iv1.meterline", secret: "github-client-secret-of-the-tests" };

interface Person {
  id: number;
  login: string;
  name: string;
  email: string | null;
  avatar_url: string;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
};

/**
 * A local stand-in for GitHub's OAuth app endpoints in their documented shapes, at GitHub
 * Enterprise Server paths: /login/oauth/authorize (the person is already signed in and consents),
 * /login/oauth/access_token (form in, JSON out when asked, PKCE checked, codes single use) and
 * /api/v3/user. `as` chooses who is signed in at the next authorize.
 */
export async function startGithubDouble() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const codes = new Map<string, { person: Person; challenge: string; redirect: string }>();
  const tokens = new Map<string, Person>();
  let current: Person = { id: 1, login: "octocat", name: "The Octocat", email: null, avatar_url: "" };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", base);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/login/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== GITHUB_CLIENT.id) return json(404, { error: "unknown client" });
      const code = randomBytes(10).toString("hex");
      codes.set(code, {
        person: current,
        challenge: q.get("code_challenge") ?? "",
        redirect: q.get("redirect_uri")!,
      });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/login/oauth/access_token") {
      const form = await readBody(req);
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      // GitHub answers 200 with an error body for a bad code.
      if (
        !grant ||
        form.get("client_id") !== GITHUB_CLIENT.id ||
        form.get("client_secret") !== GITHUB_CLIENT.secret ||
        form.get("redirect_uri") !== grant.redirect ||
        challenge !== grant.challenge
      ) {
        return json(200, {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        });
      }
      const token = `gho_${randomBytes(12).toString("hex")}`;
      tokens.set(token, grant.person);
      return json(200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
    }
    if (req.method === "GET" && url.pathname === "/api/v3/user") {
      const person = tokens.get((req.headers.authorization ?? "").replace(/^bearer /i, ""));
      if (!person) return json(401, { message: "Bad credentials" });
      return json(200, { ...person, type: "User" });
    }
    json(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    base,
    as(person: Person) {
      current = person;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
