// The sign-in families' status, which the writes that check a person's sign-in read.
import { SignInFamilies } from '../data/sign-in-families';
import { config, once } from './context';
import { documentClient } from './document-client';

export const signInFamilies = once(() => new SignInFamilies(documentClient(), config().tableName));
