// A local S3 (s3rver) for the local run's exports and the tests, with the export bucket created. It runs
// inside this Node process, so it stops with it: there is no child process to leave behind.
import S3rver from 's3rver';
import { makeFolder } from '../../shared/files/make-folder';

export interface S3Local {
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

export async function startS3Local(options: { directory: string; bucket: string }): Promise<S3Local> {
  makeFolder(options.directory);
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
  });
  const { port } = await server.run();
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket: options.bucket,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
    },
  };
}
