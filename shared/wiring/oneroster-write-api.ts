// The factory of the OneRoster Gradebook binding's writes, given the row gradebookWriteRoute finds (so that
// a write's bundle holds the write rows alone, not the binding's whole table): the factory of the native
// writes (revocable-api.ts), refusing a person's token at once when its sign-in is revoked, with the
// binding's imsx_StatusInfo errors.

import type { ApiHandler } from '../exchange';
import { imsxDialect } from '../oneroster/dialect';
import type { Route } from '../route';
import { revocableApiIn } from './revocable-api';

export const oneRosterWriteApi = (route: Route, handle: ApiHandler) =>
  revocableApiIn({ imsx: imsxDialect }, route, handle);
