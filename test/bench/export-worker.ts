// One export run of the tenant its environment names (TABLE_NAME, EXPORT_BUCKET, their endpoints), in a
// process of its own so that its memory is the exporter's alone: prints its time, its peak memory, what
// it exported and the OneRoster zip's size, as one JSON line (read by measureExport in export-child.ts).
import { parseExportConfig } from '../../shared/config';
import { createExportServices } from '../../shared/exports/services';
import { createLogger } from '../../shared/log';

async function main() {
  const services = createExportServices(parseExportConfig(process.env), createLogger('silent'));
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const runId = `bench-${Date.now()}`;
  const result = await services.exporter.run({ runId, store: services.bucketStore(runId) });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  services.destroy();
  if (result.status !== 'complete') throw new Error('the export did not run');
  const { manifest } = result;
  const file = (name: string) => manifest.files.find((f) => f.name === name)?.bytes ?? 0;
  process.stdout.write(
    `${JSON.stringify({
      seconds,
      peakRssMiB: peakRss / 2 ** 20,
      peakHeapMiB: peakHeap / 2 ** 20,
      records: Object.values(manifest.groups).reduce((sum, group) => sum + group.total_items, 0),
      students: manifest.groups.students.total_items,
      enrollments: manifest.groups.enrollments.total_items,
      ndjsonMiB: file('students.ndjson.gz') / 2 ** 20,
      csvMiB: file('students.csv') / 2 ** 20,
      onerosterMiB: manifest.oneroster.bytes / 2 ** 20,
    })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
