// The Lambda Node.js runtime's part, run in the function's own Node process (plain JavaScript: nothing
// here is compiled). It loads the handler from the task root as the runtime does (`_HANDLER` names the
// module and its export; the first of .js, .mjs, .cjs found), then runs the invocations the parent
// sends over the IPC channel one at a time, each with a context object shaped like Lambda's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const env = process.env;
const handlerSetting = env._HANDLER ?? '';
const dot = handlerSetting.lastIndexOf('.');
const moduleName = handlerSetting.slice(0, dot);
const exportName = handlerSetting.slice(dot + 1);

/** The error shape Lambda reports: a type, a message and the stack as lines. */
const reported = (error, errorType) => ({
  errorType: errorType ?? (error instanceof Error ? error.name : 'Error'),
  errorMessage: error instanceof Error ? error.message : String(error),
  trace: error instanceof Error && error.stack ? error.stack.split('\n') : [],
});

async function loadHandler() {
  const taskRoot = env.LAMBDA_TASK_ROOT ?? process.cwd();
  const file = ['.js', '.mjs', '.cjs'].map((ext) => join(taskRoot, `${moduleName}${ext}`)).find(existsSync);
  if (!file)
    throw Object.assign(new Error(`Cannot find module '${moduleName}'`), { lambda: 'ImportModuleError' });
  const module = await import(pathToFileURL(file).href);
  const handler = module[exportName];
  if (typeof handler !== 'function') {
    throw Object.assign(new Error(`${handlerSetting} is undefined or not exported`), {
      lambda: 'HandlerNotFound',
    });
  }
  return handler;
}

function contextFor(invocation) {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: invocation.invokedFunctionArn,
    memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: invocation.requestId,
    logGroupName: env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, invocation.deadline - Date.now()),
  };
}

// Lambda ends an environment whose code fails outside an invocation's promise; so does this one.
const crash = (error) => {
  process.send({ kind: 'crash', error: reported(error) }, () => process.exit(1));
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
// The parent is the Lambda service here: without it there is nothing left to run.
process.on('disconnect', () => process.exit(0));

let handler;
try {
  handler = await loadHandler();
  process.send({ kind: 'ready' });
} catch (error) {
  process.send(
    { kind: 'init-error', error: reported(error, error?.lambda && `Runtime.${error.lambda}`) },
    () => process.exit(1),
  );
}

let queue = Promise.resolve();
process.on('message', (invocation) => {
  queue = queue.then(async () => {
    env._X_AMZN_TRACE_ID = invocation.traceId;
    try {
      const value = await handler(invocation.event, contextFor(invocation));
      // Lambda answers with the JSON of what the handler returned; undefined becomes null.
      process.send({ kind: 'result', id: invocation.id, payload: JSON.stringify(value ?? null) });
    } catch (error) {
      process.send({ kind: 'error', id: invocation.id, error: reported(error) });
    }
  });
});
