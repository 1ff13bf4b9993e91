// The failed sign-ins of names and addresses, read and counted by the sign-in form.
import { SignInThrottle } from '../auth/sign-in-throttle';
import { SignInThrottleRepository } from '../data/sign-in-throttle-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const signInThrottle = once(
  () => new SignInThrottle(new SignInThrottleRepository(documentClient(), config().tableName)),
);
