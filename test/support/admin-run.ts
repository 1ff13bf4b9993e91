// The admin CLI as an operator runs it, on a test API's table and audit file, in this process
// (test/admin-cli.test.ts runs it as a child process too).
import { inject } from 'vitest';
import { runAdmin } from '../../infra/cli/admin/main';

export interface AdminRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runAdminOn(
  api: { tableName: string; auditLogFile: string },
  args: string[],
): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin({
    argv: args,
    env: {
      ...process.env,
      TABLE_NAME: api.tableName,
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      AWS_REGION: 'eu-west-1',
      TENANT_ID: 'demo',
      AUDIT_LOG_FILE: api.auditLogFile,
    },
    stdin: { isTTY: false, read: async () => '' },
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { code, stdout, stderr };
}
