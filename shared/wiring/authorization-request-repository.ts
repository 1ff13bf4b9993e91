// Checked authorization requests, kept between the sign-in page and its form.
import { AuthorizationRequestRepository } from '../data/authorization-request-repository';
import { config, once } from './context';
import { documentClient } from './document-client';

export const authorizationRequestRepository = once(
  () => new AuthorizationRequestRepository(documentClient(), config().tableName),
);
