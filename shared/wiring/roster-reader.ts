// The native groups as the OneRoster routes read them.
import { RosterReader } from '../oneroster/roster-reader';
import { config, once } from './context';
import { recordRepository } from './record-repository';

export const rosterReader = once(() => new RosterReader(recordRepository(), config().syncLagMs));
