// OAuth clients, read by the token, revocation and authorization endpoints.
import { ClientRepository } from '../data/client-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const clientRepository = once(() => new ClientRepository(documentClient(), config().tableName));
