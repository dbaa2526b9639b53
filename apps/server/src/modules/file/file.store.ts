import { randomUUID } from "node:crypto";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { FILE_LINK_BASE } from "../../plugins/file-links.ts";

export { FILE_LINK_BASE };

export interface StoredFile {
  link: string;
  domain: string;
  name: string;
  originalName: string;
}

/** Keeps a file in the database under an unguessable `upload/<yyyyMMdd>/<uuid>.<ext>` name. */
export async function storeFile(
  db: Queryable,
  file: {
    tenantId: string;
    userId: string;
    originalName: string;
    extension: string;
    contentType: string;
    content: Buffer;
  },
): Promise<StoredFile> {
  const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
  const name = `upload/${day}/${randomUUID().replaceAll("-", "")}.${file.extension}`;
  await db.query(
    `insert into res_file (id, tenant_id, name, original_name, extension, content_type, size, content, create_user)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      nextId(),
      file.tenantId,
      name,
      file.originalName.slice(0, 500),
      file.extension,
      file.contentType,
      file.content.length,
      file.content,
      file.userId || null,
    ],
  );
  return { link: `${FILE_LINK_BASE}/${name}`, domain: FILE_LINK_BASE, name, originalName: file.originalName };
}
