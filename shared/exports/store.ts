// Where one export run's files go and are read back from: a prefix of the tenant's export bucket, or a
// local folder (`npm run export -- --out`). Both hold the same file names; only S3 is used when deployed.
import { createReadStream, createWriteStream, existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { makeFolder } from '../files/make-folder';

export interface ExportStore {
  /** The run's address for people: `s3://bucket/prefix/` or a folder path. */
  readonly location: string;
  /** Stores a file whole or not at all; an aborted write leaves no file under its name. */
  write(name: string, body: Readable, contentType: string, signal: AbortSignal): Promise<void>;
  read(name: string): Promise<Readable | undefined>;
  exists(name: string): Promise<boolean>;
  /** Names of every file of the run. */
  list(): Promise<string[]>;
}

/** Multipart parts of 8 MiB, two in flight: an upload holds at most about 16 MiB, whatever the file size. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export interface S3Options {
  region: string;
  /** A local S3 (s3rver); it takes any credentials and path-style addresses. */
  endpoint?: string | undefined;
}

export function createS3Client({ region, endpoint }: S3Options): S3Client {
  return new S3Client({
    region,
    ...(endpoint
      ? { endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
      : {}),
  });
}

export class S3Store implements ExportStore {
  readonly location: string;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    /** The run's prefix, ending in `/`. */
    private readonly prefix: string,
  ) {
    this.location = `s3://${bucket}/${prefix}`;
  }

  async write(name: string, body: Readable, contentType: string, signal: AbortSignal): Promise<void> {
    const upload = new Upload({
      client: this.s3,
      params: { Bucket: this.bucket, Key: this.prefix + name, Body: body, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    const abort = () => void upload.abort().catch(() => undefined);
    signal.addEventListener('abort', abort, { once: true });
    try {
      await upload.done();
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }

  async read(name: string): Promise<Readable | undefined> {
    try {
      const { Body } = await this.s3.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + name }),
      );
      return Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey) return undefined;
      throw error;
    }
  }

  async exists(name: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + name }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || (error as Error).name === 'NotFound') return false;
      throw error;
    }
  }

  async list(): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? [])
        if (object.Key) names.push(object.Key.slice(this.prefix.length));
      token = page.NextContinuationToken;
    } while (token);
    return names;
  }
}

export class FolderStore implements ExportStore {
  constructor(readonly location: string) {}

  async write(name: string, body: Readable, _contentType: string, signal: AbortSignal): Promise<void> {
    makeFolder(this.location);
    // Written beside its name and renamed when whole, as S3 shows an object only once it is complete.
    const partial = join(this.location, `.${name}.partial`);
    try {
      await pipeline(body, createWriteStream(partial), { signal });
    } catch (error) {
      rmSync(partial, { force: true });
      throw error;
    }
    renameSync(partial, join(this.location, name));
  }

  async read(name: string): Promise<Readable | undefined> {
    const path = join(this.location, name);
    return existsSync(path) ? createReadStream(path) : undefined;
  }

  async exists(name: string): Promise<boolean> {
    return existsSync(join(this.location, name));
  }

  async list(): Promise<string[]> {
    if (!existsSync(this.location)) return [];
    return readdirSync(this.location, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  }
}

/** Splits `s3://bucket/some/prefix` into its bucket and a prefix ending in `/`. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.*)$/.exec(url);
  if (!match) return undefined;
  const prefix = (match[2] ?? '').replace(/\/*$/, '/');
  return { bucket: match[1] as string, prefix: prefix === '/' ? '' : prefix };
}
