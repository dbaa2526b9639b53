import { LOCAL_STORAGE_CATEGORY } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import { columnByName } from "../../crud/columns.ts";
import type { ResourceHooks } from "../../crud/hooks.ts";
import { UNSAFE_NAME } from "../file/upload-part.ts";
import type { AttachObject, StorageService } from "./storage.service.ts";

/** An S3-compatible configuration names its service, bucket and key; local disk needs none. */
export const ossHooks: ResourceHooks = {
  async beforeWrite({ def, db }, values, id) {
    const read = (field: string) => {
      const value = values.get(columnByName(def, field)!);
      return typeof value === "string" ? value.trim() : value;
    };
    let category = read("category");
    if (category === undefined && id) {
      const [row] = await db.query<{ category: number }>("select category from blade_oss where id = $1", [
        id,
      ]);
      category = row?.category;
    }
    if (Number(category) === LOCAL_STORAGE_CATEGORY) return;
    for (const field of ["endpoint", "bucketName", "accessKey"]) {
      const value = read(field);
      if (value === "" || (value === undefined && !id) || value === null)
        throw badRequest(`${field}: 不能为空`);
    }
    const bucket = read("bucketName");
    if (typeof bucket === "string" && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw badRequest("bucketName: 空间名只能含小写字母、数字、'.' 和 '-', 3 到 63 个字符");
    }
    if (!id && !read("secretKey")) throw badRequest("secretKey: 不能为空");
  },
};

/**
 * Attachments: only their original name is edited by hand, and it names no path; removing one
 * deletes its object too (one already gone is no error).
 */
export const attachHooks = (storage: StorageService): ResourceHooks => ({
  async beforeWrite({ def }, values) {
    const name = values.get(columnByName(def, "originalName")!);
    if (typeof name === "string" && UNSAFE_NAME.test(name)) {
      throw badRequest("originalName: 文件名不能含路径、'..' 或控制字符");
    }
  },
  async beforeRemove({ db, user }, ids) {
    const rows = await db.query<AttachObject>(
      `select id, oss_id, object_key, content_type, original_name from blade_attach
        where id = any($1::bigint[]) and tenant_id = $2`,
      [ids, user.tenantId],
    );
    for (const row of rows) await storage.removeObject(row, db);
  },
});
