// What every factory gives the HTTP kernel whatever its routes: the process's configuration and logger,
// the query length bounds and the answer to each domain error. Each factory adds its routes'
// authentication, dialects and observers.
import { QUERY_MAX_LENGTH } from '../query-limits';
import { config, logger } from './context';
import { httpErrorOf } from './domain-errors';

export const kernelRuntime = { config, logger, queryMaxLength: QUERY_MAX_LENGTH, asHttpError: httpErrorOf };
