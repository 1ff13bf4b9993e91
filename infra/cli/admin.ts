// `npm run admin -- <noun> <verb> [options]`: manages a tenant's OAuth clients, sign-in accounts and
// signing keys, on the local run or a deployed tenant (infra/cli/target.ts). This file hands the process's
// command line, environment and standard streams to ./admin/main.ts and exits with the code it answers.
import { runAdmin } from './admin/main';

// The SDK's notice about future Node versions is not the operator's concern here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.exitCode = await runAdmin({
  argv: process.argv.slice(2),
  env: process.env,
  stdin: {
    isTTY: process.stdin.isTTY === true,
    async read() {
      process.stdin.setEncoding('utf8');
      let input = '';
      for await (const chunk of process.stdin) input += chunk;
      return input;
    },
  },
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
