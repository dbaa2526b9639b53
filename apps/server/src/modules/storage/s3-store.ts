import { PassThrough, Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { assertSafeKey, type ByteRange, type ObjectStore, type StoredObject } from "./object-store.ts";

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
  pathStyle: boolean;
}

/** Parts of a multipart upload: files above this size go up in parts, never whole in memory. */
export const PART_BYTES = 5 * 1024 * 1024;

const missing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound");

/** Objects in a bucket of any S3-compatible service (AWS S3, MinIO, Aliyun OSS, Tencent COS). */
export class S3Store implements ObjectStore {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region || "us-east-1",
      forcePathStyle: settings.pathStyle,
      credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey },
      // A storage that does not answer fails the request quickly instead of holding it.
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
      maxAttempts: 2,
      // Services that do not know the newer checksum headers (older MinIO, COS) still accept these.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, body: Readable, contentType: string): Promise<number> {
    assertSafeKey(key);
    let bytes = 0;
    const counted = new PassThrough();
    counted.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    body.on("error", (error) => counted.destroy(error));
    body.pipe(counted);
    // lib-storage sends one PutObject below PART_BYTES and a multipart upload above, buffering
    // at most queueSize parts.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: key, Body: counted, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
    return bytes;
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | undefined> {
    assertSafeKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = answer.ContentRange ? Number(answer.ContentRange.split("/")[1]) : answer.ContentLength;
      if (!(answer.Body instanceof Readable) || total === undefined)
        throw new Error("storage answered no body");
      return { body: answer.Body, size: total };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return head.ContentLength;
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    assertSafeKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
    } catch (error) {
      if (!missing(error)) throw error;
    }
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
