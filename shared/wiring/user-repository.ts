// People's sign-in accounts, read by sign-in, the refresh grant and /me.
import { UserRepository } from '../data/user-repository';
import { config, documentClient, once } from './context';

export const userRepository = once(() => new UserRepository(documentClient(), config().tableName));
