// The native groups as the OneRoster routes read them.
import { RosterReader } from '../oneroster/roster-reader';
import { once } from './context';
import { recordRepository } from './record-repository';

export const rosterReader = once(() => new RosterReader(recordRepository()));
