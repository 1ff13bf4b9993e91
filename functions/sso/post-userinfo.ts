// POST /api/sso/userinfo: the OpenID Connect claims the calling token releases about its person.
import { userinfo } from '../../shared/auth/userinfo';
import { serviceRoute } from '../../shared/service-routes';
import { recordRepository } from '../../shared/wiring/record-repository';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { userRepository } from '../../shared/wiring/user-repository';

export const handler = revocableApi(serviceRoute('post-userinfo'), async ({ auth }) => {
  if (!auth) throw new Error('post-userinfo runs only behind token authentication');
  return { body: await userinfo(auth, { users: userRepository(), records: recordRepository() }) };
});
