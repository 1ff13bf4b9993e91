// Sign-on sessions: started by sign-in, honoured by the authorization endpoint, ended at logout.
import { SessionRepository } from '../data/session-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const sessionRepository = once(() => new SessionRepository(documentClient(), config().tableName));
