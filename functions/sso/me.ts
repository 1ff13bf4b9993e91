// GET /api/sso/me: who the calling token belongs to.
import { me } from '../../shared/auth/me';
import { api } from '../../shared/http/api';

export const handler = api('get-me', async ({ auth, services }) => {
  if (!auth) throw new Error('get-me runs only behind token authentication');
  return { body: await me(auth, services) };
});
