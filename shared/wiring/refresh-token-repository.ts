// Refresh tokens and their sign-in families: the token and revocation endpoints.
import { RefreshTokenRepository } from '../data/refresh-token-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const refreshTokenRepository = once(
  () => new RefreshTokenRepository(documentClient(), config().tableName),
);
