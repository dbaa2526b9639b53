import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { LOCAL_STORAGE_CATEGORY } from "@meterline/contracts";
import { ApiError, badRequest, notFound } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { apiProcessesBesidesThis } from "../../db/id-worker-lease.ts";
import { nextId } from "../../db/ids.ts";
import { FILE_LINK_BASE } from "../../plugins/file-links.ts";
import { LocalStore } from "./local-store.ts";
import type { ByteRange, ObjectStore, StoredObject } from "./object-store.ts";
import { S3Store } from "./s3-store.ts";
import { StorageQuota } from "./storage-quota.ts";

/** A storage configuration row (blade_oss) as the server reads it. */
interface OssRow {
  id: string;
  category: number;
  endpoint: string | null;
  bucket_name: string | null;
  region: string | null;
  access_key: string | null;
  secret_key: string | null;
  path_style: number | null;
  link_base: string | null;
  update_time: Date | string;
}

/** An attachment row, as far as reading and removing its object needs. */
export interface AttachObject {
  id: string;
  oss_id: string | null;
  object_key: string;
  content_type: string;
  original_name: string;
}

/** A checked upload, ready to stream into storage. */
export interface UploadedFile {
  originalName: string;
  extension: string;
  contentType: string;
  body: Readable;
}

export interface SavedFile {
  link: string;
  domain: string;
  name: string;
  originalName: string;
  attachId: string;
}

/** The storage cannot be reached: the upload or download fails, and nothing is recorded. */
export const unreachable = (error: unknown) =>
  new ApiError(503, `storage: 对象存储无法访问 (${error instanceof Error ? error.message : String(error)})`);

/**
 * Where each tenant's files go and come from: the tenant's enabled configuration for new files
 * (the server's disk when none is), and for every stored file the configuration it was written
 * through, so enabling another one never breaks an older link.
 */
export class StorageService {
  private readonly local: LocalStore;
  /** S3 clients by configuration and its last change, so an edited configuration gets a new one. */
  private readonly clients = new Map<string, S3Store>();
  private readonly quota: StorageQuota;

  constructor(
    private readonly db: Db,
    private readonly cipher: FieldCipher,
    filesDir: string,
  ) {
    this.local = new LocalStore(path.resolve(filesDir));
    this.quota = new StorageQuota(db);
  }

  private storeOf(row: OssRow | undefined): ObjectStore {
    if (!row || Number(row.category) === LOCAL_STORAGE_CATEGORY) return this.local;
    const cacheKey = `${row.id}:${new Date(row.update_time).getTime()}`;
    let store = this.clients.get(cacheKey);
    if (!store) {
      store = new S3Store({
        endpoint: row.endpoint ?? "",
        bucket: row.bucket_name ?? "",
        region: row.region ?? "",
        accessKey: row.access_key ?? "",
        secretKey: row.secret_key ? (this.cipher.decrypt(row.secret_key) ?? "") : "",
        pathStyle: row.path_style !== 0,
      });
      this.clients.set(cacheKey, store);
    }
    return store;
  }

  private async ossRow(
    where: string,
    params: unknown[],
    db: Queryable = this.db,
  ): Promise<OssRow | undefined> {
    const [row] = await db.query<OssRow>(
      `select id, category, endpoint, bucket_name, region, access_key, secret_key, path_style, link_base, update_time
         from blade_oss where ${where}`,
      params,
    );
    return row;
  }

  /** Tests a configuration of the tenant before it is enabled; throws a 400 saying why it cannot be used. */
  async check(tenantId: string, ossId: string): Promise<void> {
    const row = await this.ossRow("id = $1 and tenant_id = $2 and is_deleted = 0", [ossId, tenantId]);
    if (!row) return;
    try {
      await this.storeOf(row).check();
    } catch (error) {
      const reason = error instanceof Error ? error.name || error.message : String(error);
      throw badRequest(`id: 无法连接该对象存储, 未启用 (${reason})`);
    }
  }

  /**
   * Stores an upload through the tenant's enabled storage and records it as an attachment, within
   * the tenant's quota: `maxBytes` (the most the upload can hold) is reserved before anything is
   * read or stored, so a full quota refuses the upload first; `read` then checks and opens the file.
   */
  async save(
    owner: { tenantId: string; userId: string },
    maxBytes: number,
    read: () => Promise<UploadedFile>,
  ): Promise<SavedFile> {
    const reservation = await this.quota.reserve(owner.tenantId, maxBytes);
    let stored: {
      file: UploadedFile;
      oss: OssRow | undefined;
      name: string;
      objectKey: string;
      size: number;
    };
    try {
      const file = await read();
      const oss = await this.ossRow("tenant_id = $1 and status = 2 and is_deleted = 0 order by id limit 1", [
        owner.tenantId,
      ]);
      const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
      const name = `upload/${day}/${randomUUID().replaceAll("-", "")}.${file.extension}`;
      const objectKey = `${owner.tenantId}/${name}`;
      const size = await this.storeOf(oss)
        .put(objectKey, file.body, file.contentType)
        .catch((error: unknown) => {
          if (error instanceof ApiError) throw error;
          throw unreachable(error);
        });
      stored = { file, oss, name, objectKey, size };
    } catch (error) {
      await this.quota.release(reservation);
      throw error;
    }
    const { file, oss, name, objectKey, size } = stored;
    const link = `${FILE_LINK_BASE}/${name}`;
    const domain = oss?.link_base || FILE_LINK_BASE;
    const id = nextId();
    // The attachment takes the place of the reservation at once: the quota never counts both or neither.
    const recorded = this.db.transaction(async (tx) => {
      await tx.query(
        `insert into blade_attach (id, tenant_id, link, domain, name, original_name, extension, attach_size,
           content_type, oss_id, object_key, create_user, update_user)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, nullif($12, '')::bigint, nullif($12, '')::bigint)`,
        [
          id,
          owner.tenantId,
          link,
          domain,
          name,
          file.originalName,
          file.extension,
          size,
          file.contentType,
          oss?.id ?? null,
          objectKey,
          owner.userId,
        ],
      );
      await this.quota.release(reservation, tx);
    });
    await recorded.catch(async (error: unknown) => {
      // Not recorded, so not counted: the object goes too, rather than linger unseen.
      await this.storeOf(oss)
        .remove(objectKey)
        .catch(() => undefined);
      await this.quota.release(reservation);
      throw error;
    });
    return { link, domain, name, originalName: file.originalName, attachId: id };
  }

  /** The object of an attachment, read from the storage it was written to. */
  async read(row: AttachObject, range?: ByteRange): Promise<StoredObject | undefined> {
    const store = await this.storeOfAttachment(row);
    return store.get(row.object_key, range).catch((error: unknown) => {
      throw unreachable(error);
    });
  }

  async sizeOf(row: AttachObject): Promise<number | undefined> {
    const store = await this.storeOfAttachment(row);
    return store.size(row.object_key).catch((error: unknown) => {
      throw unreachable(error);
    });
  }

  /**
   * Why an attachment's object cannot be read here. On local storage each API server keeps its own
   * disk: with others running, the file is on the disk of the one that received it, which this
   * server cannot reach, so the answer names that and the cure rather than a bare "not found".
   */
  async missing(row: AttachObject): Promise<ApiError> {
    if ((await this.storeOfAttachment(row)) !== this.local)
      return notFound("文件不存在: 对象存储中没有该文件");
    const others = await apiProcessesBesidesThis(this.db).catch(() => 0);
    if (others === 0) return notFound("文件不存在: 本地存储 (DATA_DIR/files) 中已没有该文件");
    return new ApiError(
      503,
      `文件保存在本地存储, 不在本服务器的磁盘上, 而在接收上传的另一台 API 服务器上 (另有 ${others} 台在运行): ` +
        "多台 API 服务器须使用 S3 兼容的对象存储 (资源管理 → 对象存储), 见 README「Configuration」",
    );
  }

  /**
   * Deletes an attachment's object; an object already gone is not an error. `db` is the handle of
   * the caller's transaction when it runs inside one.
   */
  async removeObject(row: AttachObject, db: Queryable = this.db): Promise<void> {
    const store = await this.storeOfAttachment(row, db);
    await store.remove(row.object_key).catch((error: unknown) => {
      throw unreachable(error);
    });
  }

  private async storeOfAttachment(row: AttachObject, db: Queryable = this.db): Promise<ObjectStore> {
    if (!row.oss_id) return this.local;
    // A configuration removed later still serves the files written through it.
    const oss = await this.ossRow("id = $1", [row.oss_id], db);
    return this.storeOf(oss);
  }

  close(): void {
    for (const store of this.clients.values()) store.close();
    this.clients.clear();
  }
}

/** How many live tenants keep new files on the server's disk (no S3-compatible storage enabled). */
export async function tenantsOnLocalStorage(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from sys_tenant t
      where t.is_deleted = 0
        and not exists (select 1 from blade_oss o
                         where o.tenant_id = t.tenant_id and o.status = 2 and o.is_deleted = 0 and o.category <> $1)`,
    [LOCAL_STORAGE_CATEGORY],
  );
  return row?.n ?? 0;
}
