// Refresh tokens and their sign-in families: the token and revocation endpoints.
import { RefreshTokenRepository } from '../data/refresh-token-repository';
import { config, documentClient, once } from './context';

export const refreshTokenRepository = once(
  () => new RefreshTokenRepository(documentClient(), config().tableName),
);
