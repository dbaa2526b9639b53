/// <reference path="./s3rver.d.ts" />
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** Credentials the local S3 server accepts. */
export const S3_KEY = "S3RVER";

/**
 * A local server speaking the S3 API on a free loopback port, its buckets in a temporary
 * directory: the real SDK talks to it over HTTP, as it would to MinIO or a cloud service.
 */
export async function startS3(buckets: string[]) {
  const directory = await mkdtemp(path.join(tmpdir(), "meterline-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
