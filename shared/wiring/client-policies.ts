// What every route that takes a bearer token keeps of the tenant's clients (disabled, rate limit).
import { ClientPolicies } from '../auth/client-policies';
import { clientRepository } from './client-repository';
import { config, once } from './context';

export const clientPolicies = once(() => new ClientPolicies(clientRepository(), config()));
