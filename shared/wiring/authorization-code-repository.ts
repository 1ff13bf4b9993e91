// Authorization codes: written by sign-in, redeemed by the token endpoint.
import { AuthorizationCodeRepository } from '../data/authorization-code-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const authorizationCodeRepository = once(
  () => new AuthorizationCodeRepository(documentClient(), config().tableName),
);
