// People's sign-in accounts, read by sign-in, the refresh grant and /me.
import { UserRepository } from '../data/user-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const userRepository = once(() => new UserRepository(documentClient(), config().tableName));
