import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { done, ok, page } from "../../contract/envelope.ts";
import { badRequest, forbidden, unauthorized } from "../../contract/errors.ts";
import { idList, optionalString, paging, readParams, requiredString } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { isAdministrator } from "../auth/current-user.ts";
import { CodeService, codeView } from "./code.service.ts";
import { DatasourceService, datasourceView } from "./datasource.service.ts";

const PLATFORM_TENANT = "000000";
const SYSTEMS = new Set(["sword", "saber", "meterline"]);

/**
 * Data sources reach other servers and the generator reads their catalogues: the platform
 * administrator only, on every call (a tenant's administrator is refused, whatever it was granted).
 */
function requirePlatformAdministrator(request: FastifyRequest) {
  const user = request.user;
  if (!user) throw unauthorized();
  if (user.tenantId !== PLATFORM_TENANT || !isAdministrator(user)) throw forbidden("无权限执行此操作");
  return user;
}

const bodyOf = (request: FastifyRequest) => readParams(request) as Record<string, unknown>;

/** blade-develop (contract §14): `datasource/*` and `code/*`. */
export async function developRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; allowed: ReadonlySet<string>; timeZone: string },
) {
  const datasources = new DatasourceService(opts.db, opts.cipher, opts.allowed);
  const codes = new CodeService(opts.db, datasources);
  const tags = ["develop"];
  const ds = "/api/blade-develop/datasource";
  const code = "/api/blade-develop/code";
  app.addHook("preHandler", async (request) => {
    if (request.url.startsWith("/api/blade-develop/")) requirePlatformAdministrator(request);
  });

  app.get(
    `${ds}/list`,
    { schema: { tags, summary: "Data sources, paged (name equality)" } },
    async (request) => {
      const params = readParams(request);
      const { current, size, offset } = paging(params);
      const { rows, total } = await datasources.page(optionalString(params, "name"), size, offset);
      return ok(page(rows.map(datasourceView), total, current, size));
    },
  );
  app.get(`${ds}/select`, { schema: { tags, summary: "Every data source, for pickers" } }, async () =>
    ok((await datasources.all()).map(datasourceView)),
  );
  app.get(
    `${ds}/detail`,
    { schema: { tags, summary: "One data source, its password masked" } },
    async (request) =>
      ok(datasourceView(await datasources.detail(requiredString(readParams(request), "id")))),
  );
  app.post(
    `${ds}/submit`,
    { schema: { tags, summary: "Create or update a data source" } },
    async (request) => {
      const id = await datasources.submit(bodyOf(request), request.user!.userId);
      return ok(datasourceView(await datasources.detail(id)));
    },
  );
  app.post(`${ds}/remove`, { schema: { tags, summary: "Remove data sources" } }, async (request) => {
    await datasources.remove(idList(readParams(request), "ids"));
    return done();
  });
  app.post(
    `${ds}/test-connection`,
    { schema: { tags, summary: "Try a data source's settings (allowed hosts only)" } },
    async (request) => {
      const version = await datasources.testConnection(bodyOf(request));
      return ok({ version }, "连接成功");
    },
  );

  app.get(
    `${code}/list`,
    { schema: { tags, summary: "Code-generation definitions, paged" } },
    async (request) => {
      const params = readParams(request);
      const { current, size, offset } = paging(params);
      const filter = {
        codeName: optionalString(params, "codeName"),
        tableName: optionalString(params, "tableName"),
      };
      const { rows, total } = await codes.page(filter, size, offset);
      return ok(page(rows.map(codeView), total, current, size));
    },
  );
  app.get(
    `${code}/detail`,
    { schema: { tags, summary: "One code-generation definition" } },
    async (request) => ok(codeView(await codes.detail(requiredString(readParams(request), "id")))),
  );
  app.post(
    `${code}/submit`,
    { schema: { tags, summary: "Create or update a definition" } },
    async (request) => {
      const id = await codes.submit(bodyOf(request));
      return ok(codeView(await codes.detail(id)));
    },
  );
  app.post(`${code}/remove`, { schema: { tags, summary: "Remove definitions" } }, async (request) => {
    await codes.remove(idList(readParams(request), "ids"));
    return done();
  });
  app.post(
    `${code}/copy`,
    { schema: { tags, summary: "Duplicate a definition as <codeName>-copy" } },
    async (request) => {
      const id = await codes.copy(requiredString(readParams(request), "id"));
      return ok(codeView(await codes.detail(id)));
    },
  );
  const genCode = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = readParams(request);
    const system = optionalString(params, "system") ?? "sword";
    if (!SYSTEMS.has(system)) throw badRequest("system: 只能是 sword、saber 或 meterline");
    const zip = await codes.generate(idList(params, "ids"));
    return reply
      .header("content-type", "application/zip")
      .header("content-disposition", 'attachment; filename="meterline-code.zip"')
      .send(Buffer.from(zip));
  };
  const summary = "Generate the resources of definitions, as a zip to unpack at the repository root";
  app.post(`${code}/gen-code`, { schema: { tags, summary } }, genCode);
  // The same for a browser download link (token in the query): generating changes nothing stored.
  app.get(`${code}/gen-code`, { schema: { tags, summary } }, genCode);
}
