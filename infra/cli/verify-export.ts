// `npm run verify-export -- <folder | s3://bucket/exports/<run>/>`: re-reads an export and checks every
// file against its manifest (./verify-export/main.ts), and exits with the code it answers: 0 when all
// match, 1 with the first difference, 2 on bad arguments.
import { runVerifyExport } from './verify-export/main';

process.exitCode = await runVerifyExport({
  argv: process.argv.slice(2),
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
