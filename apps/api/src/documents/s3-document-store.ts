import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { Readable, Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { assertStorageKey, UploadSpool, type DocumentStore } from './document-store';

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Object names are `<prefix><key>`. */
  prefix: string;
}

/**
 * Documents in S3-compatible object storage (AWS S3, MinIO, Ceph, ...). Uploads are spooled
 * locally for checking and scanning, then stored with one PUT, which is atomic: an object exists
 * whole or not at all.
 */
export class S3DocumentStore implements DocumentStore {
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    private readonly spool: UploadSpool,
  ) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where the operation needs them: the SDK's default streams bodies as
      // aws-chunked with trailing checksums, which many S3-compatible stores do not understand.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  async prepare(): Promise<void> {
    await this.spool.prepare();
    // Fails start-up early, with the bucket named, when it is missing or not reachable.
    await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket })).catch((error: Error) => {
      throw new Error(`The document bucket ${this.settings.bucket} is not reachable: ${error.name} ${error.message}`);
    });
  }

  receive = (key: string, source: Readable, through: Transform) => this.spool.receive(key, source, through);
  discard = (temporary: string) => this.spool.discard(temporary);

  async commit(temporary: string, key: string): Promise<void> {
    const { size } = await fs.stat(temporary);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectName(key), Body: createReadStream(temporary), ContentLength: size }),
    );
    await this.spool.discard(temporary);
  }

  async open(key: string): Promise<Readable> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectName(key) }));
    return object.Body as Readable;
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectName(key) }));
  }

  private objectName(key: string): string {
    assertStorageKey(key);
    return `${this.settings.prefix}${key}`;
  }
}
