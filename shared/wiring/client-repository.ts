// OAuth clients, read by the token, revocation and authorization endpoints.
import { ClientRepository } from '../data/client-repository';
import { config, documentClient, once } from './context';

export const clientRepository = once(() => new ClientRepository(documentClient(), config().tableName));
