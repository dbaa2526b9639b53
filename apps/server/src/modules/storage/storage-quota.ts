import { ApiError } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { paramValue } from "../param/param-values.ts";

const MIB = 1024 * 1024;
/** The platform's defaults when its parameters are missing or unreadable: 1 GiB and 10,000 files. */
export const DEFAULT_QUOTA_MB = 1024;
export const DEFAULT_FILE_QUOTA = 10_000;
/**
 * How long an upload may hold its reservation. Far longer than any upload of at most 10 MB takes;
 * the reservation of a server that died mid-upload stops counting after it.
 */
const RESERVATION_MINUTES = 60;

/** A tenant's limits; -1 is no limit. */
export interface Quota {
  megabytes: number;
  files: number;
}

/** What one upload holds against its tenant's quota until its attachment is recorded. */
export interface Reservation {
  id: string;
}

const megabytes = (bytes: number) => `${(bytes / MIB).toFixed(bytes >= 10 * MIB ? 0 : 1)} MB`;

/** Full answers 403, the console's toast, naming the limit, what is used and what to do. */
const full = (message: string) => new ApiError(403, message);

async function platformDefault(db: Queryable, key: string, fallback: number): Promise<number> {
  const value = Number((await paramValue(db, key))?.trim());
  return Number.isInteger(value) && value >= -1 ? value : fallback;
}

/**
 * A tenant's storage quota: megabytes and number of files, the tenant's own (sys_tenant) or the
 * platform's default (parameters storage.quotaMb and storage.fileQuota).
 *
 * Checked before an object is stored, and race-free: under a lock of the tenant's row, the use
 * (its attachments, plus the reservations of uploads in flight) and this upload's bound must fit;
 * the bound (at most the request's declared length, and never more than the upload's size limit)
 * is then reserved until the attachment is recorded. So however many uploads race, the tenant's
 * stored bytes and files never pass its quota; they only fall short of it by what reservations
 * over-estimate (multipart framing, or the size limit when no length is declared).
 *
 * The count reads the tenant's attachments through an index, at most file quota + 1 of them (no
 * more is needed to refuse); only a tenant without a file limit has all of its counted.
 */
export class StorageQuota {
  constructor(private readonly db: Db) {}

  async of(tenantId: string, db: Queryable = this.db): Promise<Quota> {
    const [own] = await db.query<{ storage_quota: number | null; file_quota: number | null }>(
      "select storage_quota, file_quota from sys_tenant where tenant_id = $1 and is_deleted = 0",
      [tenantId],
    );
    return {
      megabytes: own?.storage_quota ?? (await platformDefault(db, "storage.quotaMb", DEFAULT_QUOTA_MB)),
      files: own?.file_quota ?? (await platformDefault(db, "storage.fileQuota", DEFAULT_FILE_QUOTA)),
    };
  }

  /**
   * Reserves `bytes` and one file for an upload of the tenant, or refuses with 403 when they do not
   * fit. Undefined when the tenant has no limit at all: nothing to hold.
   */
  async reserve(tenantId: string, bytes: number): Promise<Reservation | undefined> {
    return this.db.transaction(async (tx) => {
      // The tenant's row is the lock: one upload of the tenant at a time passes this point.
      await tx.query("select 1 from sys_tenant where tenant_id = $1 for update", [tenantId]);
      const quota = await this.of(tenantId, tx);
      if (quota.megabytes < 0 && quota.files < 0) return undefined;
      await tx.query("delete from storage_reservation where tenant_id = $1 and expires_at <= now()", [
        tenantId,
      ]);
      const [used] = await tx.query<{ files: number; bytes: number }>(
        `select stored.files + held.files as files, stored.bytes + held.bytes as bytes
           from (select count(*)::int as files, coalesce(sum(attach_size), 0)::float8 as bytes
                   from (select attach_size from blade_attach where tenant_id = $1 limit $2) a) stored,
                (select count(*)::int as files, coalesce(sum(bytes), 0)::float8 as bytes
                   from storage_reservation where tenant_id = $1) held`,
        [tenantId, quota.files < 0 ? null : quota.files + 1],
      );
      const { files, bytes: stored } = used!;
      if (quota.files >= 0 && files + 1 > quota.files) {
        throw full(
          `文件数已达额度: 本租户最多存放 ${quota.files} 个文件 (含上传中的), 已存满。请删除不再需要的附件, 或请平台管理员调高租户的文件数额度`,
        );
      }
      if (quota.megabytes >= 0 && stored + bytes > quota.megabytes * MIB) {
        throw full(
          `存储空间不足: 本租户存储额度 ${quota.megabytes} MB, 已用 ${megabytes(stored)} (含上传中的), 本次上传需 ${megabytes(bytes)}。请删除不再需要的附件, 或请平台管理员调高租户的存储额度`,
        );
      }
      const id = nextId();
      await tx.query(
        `insert into storage_reservation (id, tenant_id, bytes, expires_at)
         values ($1, $2, $3, now() + make_interval(mins => $4))`,
        [id, tenantId, bytes, RESERVATION_MINUTES],
      );
      return { id };
    });
  }

  /** Gives a reservation back: its upload failed, or (with the transaction's handle) it was recorded. */
  async release(reservation: Reservation | undefined, db: Queryable = this.db): Promise<void> {
    if (reservation) await db.query("delete from storage_reservation where id = $1", [reservation.id]);
  }
}
