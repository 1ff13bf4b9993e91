// Requests counted per client and minute, and each client's daily usage.
import { RateRepository } from '../data/rate-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const rateRepository = once(() => new RateRepository(documentClient(), config().tableName));
