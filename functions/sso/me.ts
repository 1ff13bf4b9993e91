// GET /api/sso/me: who the calling token belongs to.
import { me } from '../../shared/auth/me';
import { serviceRoute } from '../../shared/service-routes';
import { recordRepository } from '../../shared/wiring/record-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = revocableApi(serviceRoute('get-me'), async ({ auth, config }) => {
  if (!auth) throw new Error('get-me runs only behind token authentication');
  return { body: await me(auth, { config, users: userRepository(), records: recordRepository() }) };
});
